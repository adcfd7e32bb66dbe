import type { SearchLine, SearchLineMatch, TreeSearchIgnored } from '@openwork/tree-search';
import type { ToolOutcome } from '@openwork/tool-contract';
import type { ToolLimits } from '../session.ts';
import { ignoredNote } from '../search/ignored-note.ts';
import { escapeName } from '../common/escape-name.ts';
import { formatBytes, utf8Length } from '../common/text.ts';
import type { GrepData, GrepMatch, GrepMode, GrepSkipped } from './grep.ts';

/** A matching line as the search found it: cut to maxLineChars, with its full length when cut. */
export type FoundMatch = SearchLineMatch & { readonly path: string };

/** What a search found, already bounded and sorted. */
export interface GrepFindings {
  readonly mode: GrepMode;
  readonly pattern: string;
  readonly root: string;
  readonly truncated: boolean;
  readonly skipped: GrepSkipped;
  readonly ignored: TreeSearchIgnored;
  /** Results skipped before this page. */
  readonly offset: number;
  /** Results the search returned, the skipped ones included. */
  readonly found: number;
  readonly matches: readonly FoundMatch[];
  readonly files: readonly string[];
  readonly counts: readonly { readonly path: string; readonly count: number }[];
}

const UNIT: Record<GrepMode, string> = { content: 'matching lines', files_with_matches: 'files', count: 'files' };

/** The search's bound on the lines one multiline match reports (fs-backend's MAX_SPAN_BYTES; the root entry exports types only). */
export const MAX_SPAN_BYTES = 64 * 1024;

/** The note on a multiline match whose lines are cut at MAX_SPAN_BYTES. */
function spanNote(match: FoundMatch): string | undefined {
  if (match.spanBytes === undefined) return undefined;
  const shownTo = match.lines?.at(-1)?.line ?? match.line;
  return `[match cut: it covers ${formatBytes(match.spanBytes)} over lines ${match.line}-${match.endLine ?? match.line}; lines to ${shownTo} are shown, at most ${formatBytes(MAX_SPAN_BYTES)}; read the file for the rest]`;
}

/**
 * The data and the model text. Lines are cut at `maxLineChars` and the text
 * stops before `maxContentBytes` (docs/design.md §9: a long line still respects the
 * byte cap, and a cut is always said); what the text leaves out, the data
 * leaves out too, and the result is then `truncated`.
 */
export function formatGrep(findings: GrepFindings, limits: ToolLimits): ToolOutcome<GrepData> {
  const { maxLineChars, maxContentBytes } = limits;
  let cutLines = 0;
  const cut = (entry: SearchLine): { text: string; note: string } => {
    const length = entry.fullLength ?? entry.text.length;
    if (length <= maxLineChars) return { text: entry.text, note: '' };
    cutLines += 1;
    return { text: entry.text.slice(0, maxLineChars), note: ` … [line cut: ${length - maxLineChars} more characters]` };
  };
  const lines: string[] = [];
  let bytes = 0;
  let capped = false;
  /** Adds one result's lines; false when the byte cap leaves no room for it. */
  const emit = (block: readonly string[]): boolean => {
    const size = block.reduce((total, line) => total + utf8Length(line) + 1, 0);
    if (bytes + size > maxContentBytes && lines.length > 0) {
      capped = true;
      return false;
    }
    bytes += size;
    lines.push(...block);
    return true;
  };

  let data: GrepData;
  const { mode, skipped } = findings;
  if (mode === 'content') {
    const matches: GrepMatch[] = [];
    // ripgrep's layout: `path:line:text` for a match, `path-line-text` for context, `--` between groups.
    let lastPath: string | undefined;
    let lastLine = 0;
    // A context line that another result of this page matches is shown as a match (`:`), once, as ripgrep shows it.
    const matched = new Set(findings.matches.flatMap((match) => [match.line, ...(match.lines ?? []).map((entry) => entry.line)].map((line) => `${line}\u0000${match.path}`)));
    for (const match of findings.matches) {
      const block: string[] = [];
      const shownPath = escapeName(match.path);
      const shown = (entry: SearchLine, separator: string) => {
        const { text, note } = cut(entry);
        const mark = matched.has(`${entry.line}\u0000${match.path}`) ? ':' : separator;
        return { entry: { line: entry.line, text }, line: `${shownPath}${mark}${entry.line}${mark}${text}${note}` };
      };
      const before = (match.before ?? []).map((entry) => shown(entry, '-'));
      const self = shown(match, ':');
      // multiline: every line of the match is a matching line, as ripgrep -U shows them.
      const rest = (match.lines ?? []).map((entry) => shown(entry, ':'));
      const after = (match.after ?? []).map((entry) => shown(entry, '-'));
      let previous = match.path === lastPath ? lastLine : 0;
      const first = before[0]?.entry.line ?? match.line;
      if (lastPath !== undefined && (match.path !== lastPath || first > lastLine + 1) && (match.before || match.after)) block.push('--');
      const note = spanNote(match);
      const push = (items: readonly { entry: { line: number }; line: string }[]) => {
        for (const item of items) {
          if (item.entry.line <= previous) continue;
          block.push(item.line);
          previous = item.entry.line;
        }
      };
      push([...before, self, ...rest]);
      if (note !== undefined) block.push(note);
      push(after);
      if (!emit(block)) break;
      lastPath = match.path;
      lastLine = previous;
      matches.push({
        path: match.path,
        line: match.line,
        text: self.entry.text,
        ...(match.before ? { before: before.map((item) => item.entry) } : {}),
        ...(match.after ? { after: after.map((item) => item.entry) } : {}),
        ...(match.endLine === undefined ? {} : { endLine: match.endLine, lines: rest.map((item) => item.entry) }),
        ...(match.spanBytes === undefined ? {} : { spanBytes: match.spanBytes }),
      });
    }
    data = { matches, truncated: findings.truncated || capped, skipped };
  } else if (mode === 'files_with_matches') {
    const files: string[] = [];
    for (const path of findings.files) {
      if (!emit([escapeName(path)])) break;
      files.push(path);
    }
    data = { files, truncated: findings.truncated || capped, skipped };
  } else {
    const counts: { path: string; count: number }[] = [];
    for (const entry of findings.counts) {
      if (!emit([`${escapeName(entry.path)}:${entry.count}`])) break;
      counts.push(entry);
    }
    data = { counts, truncated: findings.truncated || capped, skipped };
  }

  const shownCount = 'matches' in data ? data.matches.length : 'files' in data ? data.files.length : data.counts.length;
  const { offset, found } = findings;
  const notes: string[] = [];
  const pastEnd = shownCount === 0 && offset > 0 && found > 0;
  if (pastEnd) {
    notes.push(`[offset ${offset} is past the end: the result set has ${found} ${UNIT[mode]}; call again with an offset below ${found}]`);
  } else if (shownCount === 0) {
    const ignored = ignoredNote(findings.ignored, 'search');
    notes.push(`[no matches for ${JSON.stringify(findings.pattern)} in ${escapeName(findings.root)}${ignored === undefined ? '' : `; ${ignored}`}]`);
  }
  if (cutLines > 0) notes.push(`[${cutLines} line(s) longer than ${maxLineChars} characters were cut]`);
  const more = data.truncated && shownCount > 0;
  if (more) {
    const why = capped ? `the ${formatBytes(maxContentBytes)} output cap was reached` : 'more exist';
    const which = offset === 0 ? `the first ${shownCount}` : `${offset + 1}-${offset + shownCount} of the`;
    notes.push(
      `[showing ${which} ${UNIT[mode]} in path order; ${why}. Narrow the search: a more specific pattern, a deeper path, or a glob such as "*.ts"; or raise maxResults]`,
    );
  }
  const skippedTotal = skipped.binary + skipped.tooLarge + skipped.unreadable;
  if (skippedTotal > 0) {
    notes.push(`[not searched: ${skipped.binary} binary, ${skipped.tooLarge} larger than ${formatBytes(limits.maxSearchFileBytes)}, ${skipped.unreadable} unreadable]`);
  }
  // The last line says how to go on.
  if (more) notes.push(`[more results: call again with offset: ${offset + shownCount}]`);
  const paging = {
    ...(offset > 0 ? { offset } : {}),
    ...(more ? { nextOffset: offset + shownCount } : {}),
    ...(pastEnd ? { total: found } : {}),
  };
  return { data: { ...data, ...paging }, output: [...lines, ...notes].join('\n') };
}
