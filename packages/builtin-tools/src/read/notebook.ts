import { ToolError, type ToolOutcome } from '@openwork/tool-contract';
import { decodeText, formatBytes, sha256, utf8Length } from '../common/text.ts';
import type { FormatRequest } from './formats.ts';
import { maxImageBytes } from './image.ts';
import { multilineText, renderOutput, type ImageBudget, type NotebookOutput } from './notebook-outputs.ts';
import type { ReadData } from './read.ts';

interface NotebookCell {
  readonly cell_type: string;
  readonly source: string;
  readonly id?: unknown;
  readonly execution_count?: unknown;
  readonly outputs?: unknown;
  readonly attachments?: unknown;
}

interface ParsedNotebook {
  readonly cells: readonly NotebookCell[];
  readonly language: string | undefined;
}

/** A notebook rendered by read, or why the file is not one it can render. */
export type NotebookRead = { readonly kind: 'outcome'; readonly outcome: ToolOutcome<ReadData> } | { readonly kind: 'malformed'; readonly reason: string };

export function isNotebookPath(path: string): boolean {
  return path.toLowerCase().endsWith('.ipynb');
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function languageOf(metadata: unknown): string | undefined {
  if (!isRecord(metadata)) return undefined;
  const info = metadata.language_info;
  if (isRecord(info) && typeof info.name === 'string') return info.name;
  const kernel = metadata.kernelspec;
  return isRecord(kernel) && typeof kernel.language === 'string' ? kernel.language : undefined;
}

/**
 * The most JSON objects (cells, outputs and everything in them) a notebook
 * read renders (docs/contract.md §6): parsed, each costs memory whatever is
 * shown, so a notebook of a million empty outputs is shown as plain text.
 */
export const MAX_NOTEBOOK_OBJECTS = 200_000;

/** Whether the text opens more than `bound` objects: each `{`, in strings too, counts (an upper bound, found without parsing). */
function opensMoreThan(text: string, bound: number): boolean {
  let count = 0;
  for (let at = text.indexOf('{'); at !== -1; at = text.indexOf('{', at + 1)) if (++count > bound) return true;
  return false;
}

/** nbformat 4's shape, checked as far as read relies on it; anything else is a reason to show the file as plain text. */
function parseNotebook(text: string): ParsedNotebook | string {
  if (opensMoreThan(text, MAX_NOTEBOOK_OBJECTS)) return `it holds more than ${MAX_NOTEBOOK_OBJECTS} JSON objects, more than read renders by cells`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `it is not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (!isRecord(value)) return 'its JSON is not an object';
  if (!Array.isArray(value.cells)) {
    return Array.isArray(value.worksheets) ? 'it is an nbformat 3 notebook, and only nbformat 4 is rendered' : 'it has no "cells" list';
  }
  const cells: NotebookCell[] = [];
  for (const [index, cell] of value.cells.entries()) {
    const source = isRecord(cell) ? multilineText(cell.source) : undefined;
    if (!isRecord(cell) || typeof cell.cell_type !== 'string' || source === undefined) return `cell ${index + 1} has no "cell_type" or no text "source"`;
    if (cell.outputs !== undefined && (!Array.isArray(cell.outputs) || !cell.outputs.every(isRecord))) return `the outputs of cell ${index + 1} are not a list of objects`;
    cells.push({ ...cell, cell_type: cell.cell_type, source });
  }
  return { cells, language: languageOf(value.metadata) };
}

/** A line as the output shows it: cut past the line cap, saying so. */
function shownLine(line: string, maxLineChars: number): string {
  return line.length > maxLineChars ? `${line.slice(0, maxLineChars)} … [line cut: ${line.length - maxLineChars} more characters]` : line;
}

/** One cell as lines: its header, its source, then each output under a header of its own. */
function renderCell(cell: NotebookCell, number: number, budget: ImageBudget, limits: { maxLineChars: number; maxContentBytes: number }): string[] {
  const { maxLineChars } = limits;
  const details = [cell.cell_type];
  if (typeof cell.execution_count === 'number') details.push(`execution_count ${cell.execution_count}`);
  if (typeof cell.id === 'string') details.push(`id ${JSON.stringify(cell.id)}`);
  const lines = [`[cell ${number}: ${details.join(', ')}]`];
  const source = cell.source.replace(/\r\n/gu, '\n').split('\n');
  // A final newline ends the last line; it does not start another.
  if (source.length > 1 && source.at(-1) === '') source.pop();
  if (cell.source === '') lines.push('(empty)');
  else lines.push(...source.map((line) => shownLine(line, maxLineChars)));
  if (isRecord(cell.attachments)) lines.push(`[cell ${number}: ${Object.keys(cell.attachments).length} attachment(s), not shown]`);
  const outputs = Array.isArray(cell.outputs) ? (cell.outputs as NotebookOutput[]) : [];
  // Outputs past the output cap would be cut anyway: they are not rendered at all, so memory follows what is shown.
  let bytes = lines.reduce((sum, line) => sum + utf8Length(line) + 1, 0);
  for (const [index, output] of outputs.entries()) {
    if (bytes > limits.maxContentBytes) {
      lines.push(`[cell ${number}: outputs ${index + 1}-${outputs.length} not rendered: the cell is past the ${formatBytes(limits.maxContentBytes)} output cap]`);
      break;
    }
    const rendered = renderOutput(output, budget);
    const shown = [`[cell ${number} output ${index + 1}: ${rendered.header}]`, ...rendered.lines.map((line) => shownLine(line, maxLineChars))];
    for (const line of shown) bytes += utf8Length(line) + 1;
    lines.push(...shown);
  }
  return lines;
}

/**
 * A notebook read by cells: `offset` and `limit` count cells,
 * and so do `lineCount`, `totalLines` and `nextOffset` in the data. Whole
 * cells only within the content cap, but never nothing: a first cell above
 * the cap is cut at a line and says so. Images of the cells shown are
 * attached within the image limit; everything else is text.
 */
export function readNotebook(request: FormatRequest, bytes: Uint8Array): NotebookRead {
  const { session, path, shownPath, offset, limit } = request;
  const decoded = decodeText(bytes, shownPath);
  const parsed = parseNotebook(decoded.text);
  if (typeof parsed === 'string') return { kind: 'malformed', reason: parsed };
  const { cells, language } = parsed;
  if (offset > cells.length) {
    throw new ToolError('invalid_input', `offset ${offset} is past the end of ${shownPath}, a notebook of ${cells.length} cells (offset and limit count cells); use an offset below ${cells.length}`);
  }
  // The notebook's JSON as it is now is what an edit would change: remember it for edit's staleness check.
  session.readLedger.remember(session.paths.canonicalKey(path), sha256(bytes), decoded.text);

  const { maxContentBytes, maxLineChars } = session.limits;
  const budget: ImageBudget = { remaining: maxImageBytes(session.limits), images: [], omitted: 0 };
  const end = Math.min(cells.length, limit === undefined ? cells.length : offset + limit);
  const shown: string[] = [];
  let used = 0;
  let index = offset;
  let cutNote: string | undefined;
  for (; index < end; index += 1) {
    const cell = cells[index];
    if (cell === undefined) break;
    const imagesBefore = budget.images.length;
    const remaining = budget.remaining;
    const lines = renderCell(cell, index + 1, budget, { maxLineChars, maxContentBytes });
    const size = utf8Length(lines.join('\n')) + 1;
    if (used + size > maxContentBytes && shown.length > 0) {
      // Whole cells only: this one's images go back, and the next read starts at it.
      budget.images.length = imagesBefore;
      budget.remaining = remaining;
      break;
    }
    if (size > maxContentBytes) {
      let kept = 0;
      let keptBytes = 0;
      while (kept < lines.length && keptBytes + utf8Length(lines[kept] ?? '') + 1 <= maxContentBytes) keptBytes += utf8Length(lines[kept++] ?? '') + 1;
      cutNote = `[cell ${index + 1} was cut after ${kept} of its ${lines.length} lines: it is larger than the ${formatBytes(maxContentBytes)} output cap]`;
      lines.length = Math.max(kept, 1);
      // Images whose lines were cut away are not sent: each image the result carries is named in its text.
      budget.images.length = imagesBefore + lines.filter((line) => /^\[cell \d+ output \d+: .* attached as image \d+\b/u.test(line)).length;
    }
    shown.push(...lines);
    used += size;
  }
  const cellCount = index - offset;
  const truncated = index < cells.length;
  const content = shown.length === 0 ? '' : `${shown.join('\n')}\n`;
  const data: ReadData = {
    path: path.displayPath,
    content,
    offset,
    lineCount: cellCount,
    totalLines: cells.length,
    truncated,
    ...(truncated ? { nextOffset: index } : {}),
    kind: 'notebook',
    notebook: { cells: cells.length, ...(language === undefined ? {} : { language }), images: budget.images.length, omittedImages: budget.omitted },
  };
  const about = `[${shownPath}: Jupyter notebook${language === undefined ? '' : ` (${language})`}, ${cells.length} cell${cells.length === 1 ? '' : 's'}; offset and limit count cells]`;
  const notes: string[] = [];
  if (cells.length === 0) notes.push(`[${shownPath} has no cells]`);
  if (cutNote !== undefined) notes.push(cutNote);
  if (budget.omitted > 0) notes.push(`[${budget.omitted} image output(s) were not attached: one read attaches at most ${formatBytes(maxImageBytes(session.limits))} of images]`);
  if (truncated) notes.push(`[showing cells ${offset + 1}-${index} of ${cells.length}; continue with offset ${index}]`);
  const output = [about, ...shown, ...notes].join('\n');
  return { kind: 'outcome', outcome: { data, output, ...(budget.images.length > 0 ? { images: budget.images } : {}) } };
}
