// The warm session against ripgrep: the same searches through one MCP stdio
// session of the built command and as `rg` processes, alternating, so that
// the machine's load weighs on both alike.
//   node warm-session.mjs '{"command": "node", "args": [...], "cwd": "...", "searches": [{"name", "tool", "arguments", "rg": [...]}], "rounds": 2}'
// prints {"rows": [{name, ours, rg, oursCount, rgCount}], "oursTotal", "rgTotal", "roundTotals", "rssKiB", "first"}.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const spec = JSON.parse(process.argv[2] ?? '{}');
const rounds = spec.rounds ?? 1;

/** One rg process, its output counted as lines (rg exits 1 when nothing matched); with `head`, its output closed after that many lines, as `| head -N` does. */
function rg(argv, head) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(argv[0], argv.slice(1), { cwd: spec.cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    let lines = 0;
    child.stdout.on('data', (chunk) => {
      for (const byte of chunk) if (byte === 10) lines += 1;
      if (head !== undefined && lines >= head) child.stdout.destroy();
    });
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0 || code === 1 || (head !== undefined && (signal === 'SIGPIPE' || code === 2))) resolve({ ms: performance.now() - started, count: head === undefined ? lines : Math.min(lines, head) });
      else reject(new Error(`${argv.join(' ')} exited ${code ?? signal}`));
    });
  });
}

function countOf(result) {
  const data = result.structuredContent;
  if (data === undefined || data === null) return Number.NaN;
  for (const key of ['files', 'matches', 'counts', 'paths']) if (Array.isArray(data[key])) return data[key].length;
  return Number.NaN;
}

function rssKiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
}

const transport = new StdioClientTransport({ command: spec.command, args: spec.args, stderr: 'ignore' });
const client = new Client({ name: 'openwork-bench', version: '0.0.0' });
await client.connect(transport);
// The session starts as an agent's does: a small call first, then the searches, the first of them cold for the server.
await client.callTool({ name: 'list', arguments: { path: '.' } });
const rssAtStart = rssKiB(transport.pid);

async function ours(search) {
  const started = performance.now();
  const result = await client.callTool({ name: search.tool, arguments: search.arguments }, undefined, { timeout: 600_000 });
  const ms = performance.now() - started;
  if (result.isError === true) throw new Error(`${search.name}: ${JSON.stringify(result.content)}`);
  return { ms, count: countOf(result) };
}

const rows = spec.searches.map((search) => ({ name: search.name, ours: [], rg: [], oursCount: 0, rgCount: 0 }));
const roundTotals = [];
let first;
for (let round = 0; round < rounds; round += 1) {
  const total = { ours: 0, rg: 0 };
  roundTotals.push(total);
  for (const [index, search] of spec.searches.entries()) {
    const row = rows[index];
    // Alternating which side goes first, search by search.
    const oursFirst = (index + round) % 2 === 0;
    const theirs = oursFirst ? undefined : await rg(search.rg, search.head);
    const mine = await ours(search);
    const later = oursFirst ? await rg(search.rg, search.head) : theirs;
    first ??= mine.ms;
    row.ours.push(mine.ms);
    row.rg.push(later.ms);
    total.ours += mine.ms;
    total.rg += later.ms;
    row.oursCount = mine.count;
    row.rgCount = later.count;
  }
}
const rssAtEnd = rssKiB(transport.pid);
await client.close();
const sum = (values) => values.reduce((total, value) => total + value, 0);
console.log(
  JSON.stringify({
    rows: rows.map((row) => ({ ...row, ours: sum(row.ours) / rounds, rg: sum(row.rg) / rounds })),
    oursTotal: sum(rows.map((row) => sum(row.ours))) / rounds,
    rgTotal: sum(rows.map((row) => sum(row.rg))) / rounds,
    roundTotals,
    rssAtStartKiB: rssAtStart,
    rssKiB: rssAtEnd,
    first,
  }),
);
