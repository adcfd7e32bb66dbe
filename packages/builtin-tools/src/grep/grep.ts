import { defineTool, safeProgress } from '@openwork/tool-contract';
import Type from 'typebox';
import { descriptions } from '../descriptions.generated.ts';
import type { BuiltinSession } from '../session.ts';
import { BoundedSortedList } from '../search/bounded-sorted.ts';
import { grepGlobFilter } from '../search/path-filter.ts';
import { BatchReader } from '../search/batch-reader.ts';
import { compileSearchPattern, type SearchPattern } from '../search/regex.ts';
import { throwIfAborted, walk, type WalkFile } from '../search/walk.ts';
import { compareBytes } from '../shared/text.ts';
import { formatGrep, type GrepFindings } from './format.ts';
import { countMatchingLines } from './line-scan.ts';
import { keptLine } from './line-text.ts';
import { GrepOutput } from '../shared/output-schemas.ts';

export const GrepInput = Type.Object({
  pattern: Type.String({ minLength: 1, description: 'Regular expression (RE2 syntax) searched for in each line.' }),
  path: Type.Optional(Type.String({ description: 'File or directory to search; default: the working directory.' })),
  glob: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        "Only files matching this glob, as ripgrep's -g: without a `/` it matches a name at any depth (`*.ts`), with one the path relative to `path` (`src/**/*.ts`); a leading `!` leaves out what matches (`!dist/`).",
    }),
  ),
  mode: Type.Optional(
    Type.Union([Type.Literal('content'), Type.Literal('files_with_matches'), Type.Literal('count')], {
      description: '`files_with_matches` (default): the files; `content`: the matching lines; `count`: matching lines per file.',
    }),
  ),
  caseInsensitive: Type.Optional(Type.Boolean({ description: 'Match regardless of case; default false.' })),
  context: Type.Optional(Type.Integer({ minimum: 0, maximum: 20, description: 'content mode: lines shown before and after each match, 0–20; default 0.' })),
  maxResults: Type.Optional(
    Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Most results (lines in content mode, files otherwise); default 100.' }),
  ),
  includeIgnored: Type.Optional(Type.Boolean({ description: 'Also search files that .gitignore / .ignore exclude; .git/ is never searched. Default false.' })),
});

export type GrepMode = 'content' | 'files_with_matches' | 'count';

export interface GrepLine {
  readonly line: number;
  readonly text: string;
}

export interface GrepMatch {
  readonly path: string;
  /** 1-based. */
  readonly line: number;
  readonly text: string;
  /** With `context`: the lines just before and after, as far as the file goes. */
  readonly before?: readonly GrepLine[];
  readonly after?: readonly GrepLine[];
}

export interface GrepSkipped {
  readonly binary: number;
  readonly tooLarge: number;
  readonly unreadable: number;
}

export type GrepData =
  | { readonly matches: readonly GrepMatch[]; readonly truncated: boolean; readonly skipped: GrepSkipped }
  | { readonly files: readonly string[]; readonly truncated: boolean; readonly skipped: GrepSkipped }
  | { readonly counts: readonly { readonly path: string; readonly count: number }[]; readonly truncated: boolean; readonly skipped: GrepSkipped };

/** Binary detection as git and ripgrep do it: a NUL in the first 8 KiB. */
const BINARY_SNIFF_BYTES = 8 * 1024;
const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

interface Hit {
  readonly path: string;
  readonly line: number;
  readonly match?: GrepMatch;
  readonly count?: number;
}

/** About what a hit takes in the output: its path, and the text of a content match with its context, each line cut as the output cuts it. */
function hitBytes(hit: Hit, maxLineChars: number): number {
  const match = hit.match;
  if (match === undefined) return hit.path.length + 12;
  const line = (text: string) => Math.min(text.length, maxLineChars) + 12;
  const context = [...(match.before ?? []), ...(match.after ?? [])].reduce((sum, around) => sum + line(around.text), 0);
  return hit.path.length + line(match.text) + context;
}

function compareHits(left: Hit, right: Hit): number {
  return compareBytes(left.path, right.path) || left.line - right.line;
}

export const grepTool = defineTool({
  id: 'filesystem/grep',
  name: 'grep',
  description: descriptions.grep,
  risk: 'read',
  input: GrepInput,
  output: GrepOutput,
  effect: (input) => ({ kind: 'read', paths: [input.path ?? '.'] }),
  execute: async (session: BuiltinSession, call, input) => {
    const mode: GrepMode = input.mode ?? 'files_with_matches';
    // Every result takes at least a byte and a newline of output, so more than maxContentBytes never fit: a larger bound changes nothing.
    const maxResults = Math.min(input.maxResults ?? 100, session.limits.maxContentBytes);
    const context = mode === 'content' ? (input.context ?? 0) : 0;
    const pattern = compileSearchPattern(input.pattern, { caseInsensitive: input.caseInsensitive ?? false });
    const root = await session.paths.resolvePath(input.path ?? '.', 'read', 'must_exist', { signal: call.signal });
    const filter = input.glob === undefined ? undefined : grepGlobFilter(input.glob);
    // One more than asked, so `truncated` means "at least one more result exists".
    // And no more than the output limit can show: the text of a million matches is never held.
    const kept = new BoundedSortedList<Hit>({ capacity: maxResults + 1, compare: compareHits, weight: (hit) => hitBytes(hit, session.limits.maxLineChars), maxWeight: session.limits.maxContentBytes });
    const skipped = { binary: 0, tooLarge: 0, unreadable: 0 };
    const literal = pattern.requiredLiteral === undefined ? undefined : Buffer.from(pattern.requiredLiteral, 'utf8');

    const lineLiteral = mode !== 'content' && literal !== undefined && !literal.includes(0x0a) ? literal : undefined;
    const plainLiteral = pattern.requiredLiteral === input.pattern;
    // The file system found the literal in some letter case: for a plain literal that is a match, all files_with_matches needs.
    const foldedPlain = mode === 'files_with_matches' && pattern.foldedLiteral !== undefined && pattern.foldedLiteral === input.pattern;
    const { maxSearchFileBytes } = session.limits;
    // The file system drops binary files and files without the literal where it reads them (AsyncFileSystem.readFiles):
    // their bytes never reach this thread, and what arrives needs no second look for either.
    const reader = new BatchReader(
      session.filesystem,
      {
        maxBytes: maxSearchFileBytes,
        signal: call.signal,
        binarySniffBytes: BINARY_SNIFF_BYTES,
        ...(literal === undefined ? {} : { containing: literal }),
        ...(pattern.foldedLiteral === undefined ? {} : { containingIgnoringCase: pattern.foldedLiteral }),
      },
      // Small batches: a batch's files are all held at once until each is searched.
      Math.min(32, session.limits.searchConcurrency),
    );
    const visitFile = async (file: WalkFile) => {
      const entry = await reader.read(file.path);
      if (!entry.ok) {
        throwIfAborted(call.signal, 'searching');
        if (entry.error.kind === 'too_large') skipped.tooLarge += 1;
        else if (entry.error.kind !== 'not_found') skipped.unreadable += 1;
        return;
      }
      if ('excluded' in entry) {
        if (entry.excluded === 'binary') skipped.binary += 1;
        return;
      }
      if (foldedPlain) {
        kept.add({ path: file.displayPath, line: 0 });
        return;
      }
      const buffer = Buffer.from(entry.bytes.buffer, entry.bytes.byteOffset, entry.bytes.byteLength);
      if (lineLiteral !== undefined) {
        // Files and counts need no line numbers: only the lines around the literal are decoded.
        const count = countMatchingLines(buffer, lineLiteral, pattern, { plain: plainLiteral, firstOnly: mode === 'files_with_matches' });
        if (count > 0) kept.add(mode === 'count' ? { path: file.displayPath, line: 0, count } : { path: file.displayPath, line: 0 });
        return;
      }
      searchText(decoder.decode(buffer), { path: file.displayPath, pattern, mode, context, kept, maxLineChars: session.limits.maxLineChars });
    };

    const report = await walk({
      paths: session.paths,
      filesystem: session.filesystem,
      root,
      includeIgnored: input.includeIgnored ?? false,
      concurrency: session.limits.searchConcurrency,
      maxResults,
      progress: { send: safeProgress(call.progress), results: () => kept.items.length },
      signal: call.signal,
      ...(filter ? { includeFile: filter.includeFile, enterDirectory: filter.enterDirectory } : {}),
      beyondBound: (sortKey) => {
        const last = kept.last;
        return kept.full && last !== undefined && compareBytes(sortKey, last.path) > 0;
      },
      visitFile,
    });
    skipped.unreadable += report.unreadableDirectories;
    const hits = kept.items.slice(0, maxResults);
    const findings: GrepFindings = {
      mode,
      pattern: input.pattern,
      root: root.displayPath,
      truncated: kept.items.length > maxResults || kept.overWeight,
      skipped,
      matches: hits.flatMap((hit) => (hit.match ? [hit.match] : [])),
      files: hits.map((hit) => hit.path),
      counts: hits.map((hit) => ({ path: hit.path, count: hit.count ?? 0 })),
    };
    return formatGrep(findings, session.limits);
  },
});

/** Searches one decoded file line by line; stops as soon as nothing more from it can be kept. */
function searchText(
  text: string,
  search: { path: string; pattern: SearchPattern; mode: GrepMode; context: number; kept: BoundedSortedList<Hit>; maxLineChars: number },
): void {
  const { path, pattern, mode, context, kept, maxLineChars } = search;
  const lines = (text.startsWith('\uFEFF') ? text.slice(1) : text).split('\n');
  if (lines.at(-1) === '') lines.pop();
  const literal = pattern.requiredLiteral;
  const lineAt = (index: number) => {
    const raw = lines[index] ?? '';
    return raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  };
  let count = 0;
  for (let index = 0; index < lines.length; index += 1) {
    const raw = lines[index] ?? '';
    if (literal !== undefined && !raw.includes(literal)) continue;
    const line = lineAt(index);
    if (!pattern.test(line)) continue;
    if (mode === 'files_with_matches') {
      kept.add({ path, line: 0 });
      return;
    }
    if (mode === 'count') {
      count += 1;
      continue;
    }
    const numbered = (at: number): GrepLine => keptLine((text) => ({ line: at + 1, text }), lineAt(at), maxLineChars);
    const before = context > 0 ? range(Math.max(0, index - context), index).map(numbered) : undefined;
    const after = context > 0 ? range(index + 1, Math.min(lines.length, index + 1 + context)).map(numbered) : undefined;
    const match: GrepMatch = keptLine((text) => ({ path, line: index + 1, text, ...(before ? { before } : {}), ...(after ? { after } : {}) }), line, maxLineChars);
    // Refused means full of earlier hits: every later line of this file would be refused too.
    if (!kept.add({ path, line: index + 1, match })) return;
  }
  if (count > 0) kept.add({ path, line: 0, count });
}

function range(start: number, end: number): number[] {
  return Array.from({ length: Math.max(0, end - start) }, (_, offset) => start + offset);
}
