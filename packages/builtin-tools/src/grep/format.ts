import type { SearchLine, SearchLineMatch, TreeSearchIgnored } from '@openwork/fs-backend';
import type { ToolOutcome } from '@openwork/tool-contract';
import type { ToolLimits } from '../session.ts';
import { ignoredNote } from '../search/ignored-note.ts';
import { escapeName } from '../shared/escape-name.ts';
import { formatBytes, utf8Length } from '../shared/text.ts';
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
  readonly matches: readonly FoundMatch[];
  readonly files: readonly string[];
  readonly counts: readonly { readonly path: string; readonly count: number }[];
}

const UNIT: Record<GrepMode, string> = { content: 'matching lines', files_with_matches: 'files', count: 'files' };

/**
 * The data and the model text. Lines are cut at `maxLineChars` and the text
 * stops before `maxContentBytes` (seed §9: a long line still respects the
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
    for (const match of findings.matches) {
      const block: string[] = [];
      const shownPath = escapeName(match.path);
      const shown = (entry: SearchLine, separator: string) => {
        const { text, note } = cut(entry);
        return { entry: { line: entry.line, text }, line: `${shownPath}${separator}${entry.line}${separator}${text}${note}` };
      };
      const before = (match.before ?? []).map((entry) => shown(entry, '-'));
      const self = shown(match, ':');
      const after = (match.after ?? []).map((entry) => shown(entry, '-'));
      let previous = match.path === lastPath ? lastLine : 0;
      const first = before[0]?.entry.line ?? match.line;
      if (lastPath !== undefined && (match.path !== lastPath || first > lastLine + 1) && (match.before || match.after)) block.push('--');
      for (const item of [...before, self, ...after]) {
        if (item.entry.line <= previous) continue;
        block.push(item.line);
        previous = item.entry.line;
      }
      if (!emit(block)) break;
      lastPath = match.path;
      lastLine = previous;
      matches.push({
        path: match.path,
        line: match.line,
        text: self.entry.text,
        ...(match.before ? { before: before.map((item) => item.entry) } : {}),
        ...(match.after ? { after: after.map((item) => item.entry) } : {}),
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
  const notes: string[] = [];
  if (shownCount === 0) {
    const ignored = ignoredNote(findings.ignored, 'search');
    notes.push(`[no matches for ${JSON.stringify(findings.pattern)} in ${escapeName(findings.root)}${ignored === undefined ? '' : `; ${ignored}`}]`);
  }
  if (cutLines > 0) notes.push(`[${cutLines} line(s) longer than ${maxLineChars} characters were cut]`);
  if (data.truncated) {
    const why = capped ? `the ${formatBytes(maxContentBytes)} output cap was reached` : 'more exist';
    notes.push(
      `[showing the first ${shownCount} ${UNIT[mode]} in path order; ${why}. Narrow the search: a more specific pattern, a deeper path, or a glob such as "*.ts"; or raise maxResults]`,
    );
  }
  const skippedTotal = skipped.binary + skipped.tooLarge + skipped.unreadable;
  if (skippedTotal > 0) {
    notes.push(`[not searched: ${skipped.binary} binary, ${skipped.tooLarge} larger than ${formatBytes(limits.maxSearchFileBytes)}, ${skipped.unreadable} unreadable]`);
  }
  return { data, output: [...lines, ...notes].join('\n') };
}
