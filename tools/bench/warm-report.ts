// pnpm bench --only warm: the warm MCP session against rg, as table lines.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Corpus } from './corpus.ts';
import { mib, ms, ratio } from './stats.ts';
import { WARM_SEARCHES } from './warm-searches.ts';

interface WarmRow {
  readonly name: string;
  readonly ours: number;
  readonly rg: number;
  readonly oursCount: number;
  readonly rgCount: number;
}

interface WarmResult {
  readonly rows: readonly WarmRow[];
  readonly oursTotal: number;
  readonly rgTotal: number;
  readonly roundTotals: readonly { readonly ours: number; readonly rg: number }[];
  readonly rssAtStartKiB: number;
  readonly rssKiB: number;
  readonly first: number;
}

function session(options: { project: string; bin: string; corpus: Corpus; rounds: number; flags: readonly string[] }): WarmResult {
  const { project, bin, corpus, rounds } = options;
  const stdout = execFileSync(
    process.execPath,
    [join(project, 'warm-session.mjs'), JSON.stringify({ command: process.execPath, args: [bin, 'mcp', '--cwd', corpus.root, ...options.flags], cwd: corpus.root, searches: WARM_SEARCHES, rounds })],
    { cwd: project, encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as WarmResult;
}

/** The 20 searches in one session with the default budget, then once more in a session whose budget holds a fraction of the corpus's summaries. */
export function warmSessionLines(options: { project: string; bin: string; corpus: Corpus; rounds: number }): string[] {
  const { rounds } = options;
  const result = session({ ...options, flags: [] });
  const lines = ['', `| warm MCP session (${rounds} round(s), means per search) | ours | rg process | ratio | results (ours / rg lines) |`, '|---|---|---|---|---|'];
  for (const row of result.rows) lines.push(`| ${row.name.replaceAll('|', '\\|')} | ${ms(row.ours)} | ${ms(row.rg)} | ${ratio(row.ours, row.rg)} | ${row.oursCount} / ${row.rgCount} |`);
  lines.push(`| **all 20** (target ≤ 1.0×) | ${ms(result.oursTotal)} | ${ms(result.rgTotal)} | **${ratio(result.oursTotal, result.rgTotal)}** | – |`);
  result.roundTotals.forEach((total, index) => {
    const what = index === 0 ? 'the first 20 of the session (summaries built on the way)' : `the same 20 again (round ${index + 1})`;
    lines.push(`| ${what} | ${ms(total.ours)} | ${ms(total.rg)} | ${ratio(total.ours, total.rg)} | – |`);
  });
  lines.push(`| the session's first search (cold for the server) | ${ms(result.first)} | – | – | – |`);
  lines.push(`| server RSS: after one call / after the searches (summaries are in shared memory, counted here) | ${mib(result.rssAtStartKiB)} / ${mib(result.rssKiB)} | – | – | – |`);
  // Past the budget the ring writes over the oldest summaries and those files are read as without them: what that costs.
  const small = session({ ...options, rounds: Math.max(2, rounds), flags: ['--search-cache', '8M'] });
  small.roundTotals.forEach((total, index) => {
    lines.push(`| \`--search-cache 8M\` (the summaries do not fit), round ${index + 1} | ${ms(total.ours)} | ${ms(total.rg)} | ${ratio(total.ours, total.rg)} | – |`);
  });
  return lines;
}
