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

export function warmSessionLines(options: { project: string; bin: string; corpus: Corpus; rounds: number }): string[] {
  const { project, bin, corpus, rounds } = options;
  const stdout = execFileSync(
    process.execPath,
    [join(project, 'warm-session.mjs'), JSON.stringify({ command: process.execPath, args: [bin, 'mcp', '--cwd', corpus.root], cwd: corpus.root, searches: WARM_SEARCHES, rounds })],
    { cwd: project, encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as WarmResult;
  const lines = ['', `| warm MCP session (${rounds} round(s), means per search) | ours | rg process | ratio | results (ours / rg lines) |`, '|---|---|---|---|---|'];
  for (const row of result.rows) lines.push(`| ${row.name.replaceAll('|', '\\|')} | ${ms(row.ours)} | ${ms(row.rg)} | ${ratio(row.ours, row.rg)} | ${row.oursCount} / ${row.rgCount} |`);
  lines.push(`| **all 20** (target ≤ 1.0×) | ${ms(result.oursTotal)} | ${ms(result.rgTotal)} | **${ratio(result.oursTotal, result.rgTotal)}** | – |`);
  result.roundTotals.forEach((total, index) => {
    const what = index === 0 ? 'the first 20 of the session (summaries built on the way)' : `the same 20 again (round ${index + 1})`;
    lines.push(`| ${what} | ${ms(total.ours)} | ${ms(total.rg)} | ${ratio(total.ours, total.rg)} | – |`);
  });
  lines.push(`| the session's first search (cold for the server) | ${ms(result.first)} | – | – | – |`);
  lines.push(`| server RSS: after one call / after the searches (summaries are in shared memory, counted here) | ${mib(result.rssAtStartKiB)} / ${mib(result.rssKiB)} | – | – | – |`);
  return lines;
}
