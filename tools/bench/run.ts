// pnpm bench: our tools against ripgrep, the raw pipe, plain node and the
// reference MCP filesystem server, measured alternately in the same run,
// from the packages as built and installed from their tarballs; then the
// command corpus: how often bash commands real agents ran go without asking,
// per label and per source (`pnpm bench:commands` prints only that part).
//   pnpm bench [--runs N] [--only prefix,prefix] [--calls N] [--installed DIR]   (--only commands: the corpus alone; --only one-cpu: the one-CPU survival run;
//   --only http: the MCP round trip over HTTP against the SDK's bare HTTP server; --only warm: the warm MCP session against rg alone;
//   --installed: the project a previous run installed, nothing built)
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { packAndInstall } from '@openwork/package-check';
import { cacheDirectory, ensureCorpus, ensureIgnoredLogTrees, makeIgnoredFilesTree } from './corpus.ts';
import { median, mib, ms, percentile, ratio } from './stats.ts';
import { warmSessionLines } from './warm-report.ts';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
};
const runs = Number(flag('--runs') ?? 5);
const mcpCalls = Number(flag('--calls') ?? 1000);
const only = flag('--only')?.split(',');
const installed = flag('--installed');
const wanted = (name: string) => only === undefined || only.some((prefix) => name.startsWith(prefix));
const log = (line: string) => console.error(`# ${line}`);
const repository = fileURLToPath(new URL('../../', import.meta.url));
const here = fileURLToPath(new URL('./', import.meta.url));

interface Measurement {
  readonly ms: number;
  readonly maxRssKiB: number;
  readonly summary: string;
}

/** The scripts the bench runs inside the installed project. */
const SCRIPTS = ['measure.mjs', 'mcp-latency.mjs', 'http-latency.mjs', 'bare-http-server.mjs', 'bounds.mjs', 'one-cpu.mjs', 'warm-session.mjs'];

/** Builds every package and installs the tarballs (and the reference MCP server) into a fresh project. */
async function install(): Promise<string> {
  log('building the packages (nx run @openwork/workspace:build-packages)');
  execFileSync('pnpm', ['exec', 'nx', 'run', '@openwork/workspace:build-packages', '--outputStyle=static'], {
    cwd: repository,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
  });
  const base = join(cacheDirectory(), 'install');
  await rm(base, { recursive: true, force: true });
  await mkdir(base, { recursive: true });
  log(`installing the tarballs into ${base}`);
  const { project } = await packAndInstall(base, ['@modelcontextprotocol/server-filesystem@2026.8.31', '@modelcontextprotocol/sdk@^1.32.2']);
  for (const script of SCRIPTS) await copyFile(join(here, script), join(project, script));
  return project;
}

/** Wall time of a command whose output is discarded. */
function timeCommand(argv: readonly string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(argv[0] ?? '', argv.slice(1), { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => {
      // rg exits 1 when nothing matched; that is a finished search too.
      if (code === 0 || (code === 1 && argv[0] === 'rg')) resolve(performance.now() - started);
      else reject(new Error(`${argv.join(' ')} exited ${code}`));
    });
  });
}

function hasRipgrep(): boolean {
  try {
    execFileSync('rg', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

interface Scenario {
  readonly name: string;
  readonly cwd: string;
  /** Our tool call, measured in-process in a fresh process; or, for startup, our command. */
  readonly ours: { readonly tool: string; readonly input: Record<string, unknown>; readonly readWorkers?: number } | { readonly command: readonly string[] };
  /** Also time our call through `openwork-tools call`. */
  readonly throughCommand?: boolean;
  /** A command, or our own call in another tree. */
  readonly baseline: readonly string[] | { readonly oursIn: string };
  readonly baselineLabel: string;
  readonly target: string;
}

interface Row {
  readonly scenario: Scenario;
  readonly ours: number;
  readonly command: number | undefined;
  readonly baseline: number;
  readonly maxRssKiB: number | undefined;
  readonly summary: string;
}

// The command corpus needs no build: with `--only commands` nothing is installed.
const commandsOnly = only !== undefined && only.every((prefix) => 'commands'.startsWith(prefix));
const commandLines: string[] = [];
if (wanted('commands')) {
  log('running: commands, the command corpus in default and acceptEdits mode');
  // The corpus and its report are bash-classifier's test code: run as `pnpm bench:commands` runs them, with bash reading each line.
  const report = spawnSync(process.execPath, ['--import', 'tsx', join(repository, 'packages/bash-classifier/test/corpus/bench.ts'), '--asking', '10'], {
    cwd: join(repository, 'packages/bash-classifier'),
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (report.status !== 0) throw new Error(`the command corpus failed: ${report.stderr}`);
  commandLines.push('', '```', 'command corpus: bash commands run without asking', ...report.stdout.trimEnd().split('\n'), '```');
}
if (commandsOnly) {
  console.log(commandLines.join('\n'));
  process.exit(0);
}

const project = installed ?? (await install());
// A project installed before gets the scripts as they are now.
if (installed !== undefined) for (const script of SCRIPTS) await copyFile(join(here, script), join(project, script));
const bin = join(project, 'node_modules', '@openwork', 'cli', 'dist', 'openwork-tools.js');

/** Starts an MCP server over HTTP with node and waits for the address it prints to stderr. */
async function serveHttp(argv: readonly string[], env: Record<string, string>): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, argv, { cwd: project, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const at = /serving MCP over HTTP at (\S+)/.exec(stderr)?.[1];
      if (at !== undefined) resolve(at);
    });
    child.once('exit', (code) => reject(new Error(`${argv.join(' ')} exited with ${code}: ${stderr}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

function measureInProcess(cwd: string, tool: string, input: Record<string, unknown>, readWorkers: number | undefined): Measurement {
  const child = spawnSync(process.execPath, [join(project, 'measure.mjs'), JSON.stringify({ cwd, tool, input, readWorkers })], { cwd: project, encoding: 'utf8', maxBuffer: 1 << 20 });
  const last = child.stdout.trim().split('\n').at(-1) ?? '';
  if (child.status !== 0 || !last.startsWith('{')) {
    throw new Error(`measure.mjs ${tool} ${JSON.stringify(input)} ended with ${child.status ?? child.signal}: ${JSON.stringify(child.stdout)} ${child.stderr}`);
  }
  return JSON.parse(last) as Measurement;
}

async function runScenario(scenario: Scenario): Promise<Row> {
  const { ours, baseline } = scenario;
  const oursOnce = async (cwd: string): Promise<Measurement> =>
    'command' in ours ? { ms: await timeCommand(ours.command, cwd), maxRssKiB: Number.NaN, summary: '' } : measureInProcess(cwd, ours.tool, ours.input, ours.readWorkers);
  const baselineOnce = async (): Promise<number> => (Array.isArray(baseline) ? timeCommand(baseline, scenario.cwd) : (await oursOnce((baseline as { oursIn: string }).oursIn)).ms);
  // Warm the page cache and both sides before anything is counted.
  await baselineOnce();
  await oursOnce(scenario.cwd);
  const times: number[] = [];
  const commandTimes: number[] = [];
  const baselines: number[] = [];
  let maxRssKiB = 0;
  let summary = '';
  for (let round = 0; round < runs; round += 1) {
    baselines.push(await baselineOnce());
    const measured = await oursOnce(scenario.cwd);
    times.push(measured.ms);
    maxRssKiB = Math.max(maxRssKiB, measured.maxRssKiB);
    summary = measured.summary;
    if (scenario.throughCommand === true && 'tool' in ours) {
      commandTimes.push(await timeCommand([process.execPath, bin, 'call', ours.tool, JSON.stringify(ours.input), '--cwd', scenario.cwd, '--json'], scenario.cwd));
    }
  }
  return {
    scenario,
    ours: median(times),
    command: commandTimes.length > 0 ? median(commandTimes) : undefined,
    baseline: median(baselines),
    maxRssKiB: Number.isNaN(maxRssKiB) ? undefined : maxRssKiB,
    summary,
  };
}

const scenarios: Scenario[] = [];
const ALL = 1_000_000;
// rg searches what our grep searches: hidden files too, .gitignore without a git repository, never .git, the same 4 MiB cap.
const rg = (...rest: string[]) => ['rg', '--hidden', '--no-require-git', '-g', '!.git', '--max-filesize', '4M', ...rest];

scenarios.push(
  {
    name: 'bash: yes | head -c 1G',
    cwd: project,
    ours: { tool: 'bash', input: { command: 'yes | head -c 1073741824', timeoutMs: 600_000 } },
    baseline: ['bash', '--noprofile', '--norc', '-c', 'yes | head -c 1073741824 > /dev/null'],
    baselineLabel: 'raw pipe (to /dev/null)',
    target: '≤ 2.5×, RSS < 128 MiB',
  },
  {
    // What bounds the row above: Node itself reading the same pipe and keeping nothing.
    name: 'bash reference: plain Node reading the pipe',
    cwd: project,
    ours: {
      command: [
        process.execPath,
        '-e',
        "const c = require('node:child_process').spawn('bash', ['--noprofile', '--norc', '-c', 'yes | head -c 1073741824'], { stdio: ['ignore', 'pipe', 'ignore'] }); c.stdout.on('data', () => {});",
      ],
    },
    baseline: ['bash', '--noprofile', '--norc', '-c', 'yes | head -c 1073741824 > /dev/null'],
    baselineLabel: 'raw pipe (to /dev/null)',
    target: '(reference)',
  },
  {
    name: 'startup: tools --json',
    cwd: project,
    ours: { command: [process.execPath, bin, 'tools', '--json'] },
    baseline: [process.execPath, '-e', '0'],
    baselineLabel: 'node -e 0',
    target: '≤ 2.5×',
  },
);

const searchWanted = only === undefined || only.some((prefix) => ['grep', 'glob', '.gitignore'].some((name) => name.startsWith(prefix) || prefix.startsWith(name)));
if (searchWanted && !hasRipgrep()) {
  log('ripgrep (rg) is not installed (apt-get install ripgrep): the search scenarios are left out');
} else if (searchWanted) {
  const corpus = await ensureCorpus(log);
  log(`corpus: ${corpus.files} files, ${(corpus.bytes / 1e6).toFixed(0)} MB in ${corpus.root}`);
  const cwd = corpus.root;
  scenarios.push(
    { name: 'grep literal, files_with_matches', cwd, ours: { tool: 'grep', input: { pattern: 'createElement', maxResults: ALL } }, throughCommand: true, baseline: rg('-l', '-F', 'createElement'), baselineLabel: 'rg -l -F', target: '≤ 1.5× / ≤ 2×, < 192 MiB' },
    { name: 'grep literal, one worker', cwd, ours: { tool: 'grep', input: { pattern: 'createElement', maxResults: ALL }, readWorkers: 1 }, baseline: rg('-j1', '-l', '-F', 'createElement'), baselineLabel: 'rg -j1 -l -F', target: '≤ 1.5×' },
    { name: 'grep regex, files_with_matches', cwd, ours: { tool: 'grep', input: { pattern: 'function\\s+use[A-Z]\\w+', maxResults: ALL } }, throughCommand: true, baseline: rg('-l', 'function\\s+use[A-Z]\\w+'), baselineLabel: 'rg -l', target: '≤ 2× / ≤ 2.5×, < 256 MiB' },
    { name: 'grep case-insensitive', cwd, ours: { tool: 'grep', input: { pattern: 'deprecated', caseInsensitive: true, maxResults: ALL } }, throughCommand: true, baseline: rg('-l', '-i', 'deprecated'), baselineLabel: 'rg -l -i', target: '≤ 2× / ≤ 2.5×, < 256 MiB' },
    // A literal with s and k, which RE2 also folds to the long s and the Kelvin sign.
    { name: 'grep case-insensitive, s and k', cwd, ours: { tool: 'grep', input: { pattern: 'hasOwnProperty', caseInsensitive: true, maxResults: ALL } }, throughCommand: true, baseline: rg('-l', '-i', 'hasOwnProperty'), baselineLabel: 'rg -l -i', target: '≤ 2× / ≤ 2.5×, < 256 MiB' },
    { name: 'grep case-insensitive, non-ASCII', cwd, ours: { tool: 'grep', input: { pattern: 'größe', caseInsensitive: true, maxResults: ALL } }, baseline: rg('-l', '-i', 'größe'), baselineLabel: 'rg -l -i', target: '≤ 2×' },
    { name: 'grep content mode', cwd, ours: { tool: 'grep', input: { pattern: 'TODO', mode: 'content', maxResults: ALL } }, throughCommand: true, baseline: rg('-n', 'TODO'), baselineLabel: 'rg -n', target: '≤ 2.5× / ≤ 3×, < 256 MiB' },
    { name: 'grep early stop at 100', cwd, ours: { tool: 'grep', input: { pattern: 'export' } }, baseline: ['bash', '-c', `${rg('-l', 'export').map((word) => `'${word}'`).join(' ')} | head -100`], baselineLabel: 'rg -l | head -100', target: '≤ 2×, < 160 MiB' },
    { name: 'glob **/*.js', cwd, ours: { tool: 'glob', input: { pattern: '**/*.js', maxResults: 2000 } }, throughCommand: true, baseline: rg('--files', '-g', '*.js'), baselineLabel: "rg --files -g '*.js'", target: '≤ 1.25× / ≤ 2×, < 160 MiB' },
  );
  const trees = await ensureIgnoredLogTrees(corpus, log);
  scenarios.push({
    name: '.gitignore hides a 200 MB log dir',
    cwd: trees.withLogs,
    ours: { tool: 'grep', input: { pattern: 'Observable', maxResults: ALL } },
    baseline: { oursIn: trees.without },
    baselineLabel: 'ours, the same tree without the logs',
    target: '≤ 1.1×',
  });
}

log(`${cpus().length} cores, node ${process.version}, ${runs} run(s) per scenario, medians`);
const rows: Row[] = [];
for (const scenario of scenarios.filter((candidate) => wanted(candidate.name))) {
  log(`running: ${scenario.name}`);
  rows.push(await runScenario(scenario));
}
const lines: string[] = [];
if (rows.length > 0) lines.push('| scenario | ours (in-process) | ours (command) | baseline | baseline time | ratio | ratio (command) | peak RSS | target | result |');
if (rows.length > 0) lines.push('|---|---|---|---|---|---|---|---|---|---|');
for (const row of rows) {
  lines.push(
    `| ${row.scenario.name} | ${ms(row.ours)} | ${row.command === undefined ? '–' : ms(row.command)} | ${row.scenario.baselineLabel} | ${ms(row.baseline)} | ${ratio(row.ours, row.baseline)} | ${row.command === undefined ? '–' : ratio(row.command, row.baseline)} | ${row.maxRssKiB === undefined ? '–' : mib(row.maxRssKiB)} | ${row.scenario.target} | ${row.summary} |`,
  );
}

if (wanted('warm') && hasRipgrep()) {
  log('running: warm, 20 searches through one MCP session against 20 rg processes, alternating');
  lines.push(...warmSessionLines({ project, bin, corpus: await ensureCorpus(log), rounds: Math.max(1, Math.floor(runs / 2)) }));
}
if (wanted('mcp')) {
  log(`running: mcp round trip, ${mcpCalls} sequential reads each`);
  const directory = join(cacheDirectory(), 'mcp-read');
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, 'small.txt'), 'a small file\n'.repeat(20));
  const latency = (spec: Record<string, unknown>): number[] => {
    const stdout = execFileSync(process.execPath, [join(project, 'mcp-latency.mjs'), JSON.stringify({ ...spec, calls: mcpCalls })], { cwd: project, encoding: 'utf8', maxBuffer: 1 << 24 });
    return (JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { samples: number[] }).samples;
  };
  const reference = join(project, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
  const theirs = latency({ command: process.execPath, args: [reference, directory], tool: 'read_text_file', arguments: { path: join(directory, 'small.txt') } });
  const ours = latency({ command: process.execPath, args: [bin, 'mcp', '--cwd', directory], tool: 'read', arguments: { path: 'small.txt' } });
  lines.push('', '| MCP tools/call round trip | p50 | p99 |', '|---|---|---|');
  lines.push(`| openwork-tools mcp, read | ${ms(percentile(ours, 50))} | ${ms(percentile(ours, 99))} |`);
  lines.push(`| @modelcontextprotocol/server-filesystem, read_text_file | ${ms(percentile(theirs, 50))} | ${ms(percentile(theirs, 99))} |`);
  lines.push(`| ratio (target ≤ 1×) | ${ratio(percentile(ours, 50), percentile(theirs, 50))} | ${ratio(percentile(ours, 99), percentile(theirs, 99))} |`);
}
if (wanted('mcp') || wanted('http')) {
  // docs/contract.md §5.2: a call over our HTTP server against the SDK's bare Streamable HTTP server (the same
  // transport, one trivial tool reading the same small file), taking turns call by call from one client.
  log(`running: http round trip, ${mcpCalls} sequential calls to each server, alternating`);
  const directory = join(cacheDirectory(), 'mcp-read');
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, 'small.txt'), 'a small file\n'.repeat(20));
  const token = 'bench-token-of-the-http-round-trip';
  const [ours, bare] = await Promise.all([
    serveHttp([bin, 'mcp', '--http', '127.0.0.1:0', '--cwd', directory, '--yes'], { OPENWORK_MCP_TOKEN: token }),
    serveHttp([join(project, 'bare-http-server.mjs'), join(directory, 'small.txt')], {}),
  ]);
  try {
    const servers = [
      { url: ours.url, token, tool: 'read', arguments: { path: 'small.txt' } },
      { url: bare.url, tool: 'read_text', arguments: {} },
    ];
    const stdout = execFileSync(process.execPath, [join(project, 'http-latency.mjs'), JSON.stringify({ servers, calls: mcpCalls })], { cwd: project, encoding: 'utf8', maxBuffer: 1 << 24 });
    const [oursSamples = [], bareSamples = []] = (JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { samples: number[][] }).samples;
    lines.push('', '| MCP over HTTP, tools/call round trip | p50 | p99 |', '|---|---|---|');
    lines.push(`| openwork-tools mcp --http, read | ${ms(percentile(oursSamples, 50))} | ${ms(percentile(oursSamples, 99))} |`);
    lines.push(`| the SDK's bare Streamable HTTP server, a tool reading the file | ${ms(percentile(bareSamples, 50))} | ${ms(percentile(bareSamples, 99))} |`);
    lines.push(`| ratio (target ≤ 1.2×) | ${ratio(percentile(oursSamples, 50), percentile(bareSamples, 50))} | ${ratio(percentile(oursSamples, 99), percentile(bareSamples, 99))} |`);
  } finally {
    ours.stop();
    bare.stop();
  }
}
if (wanted('bounds')) {
  // docs/contract.md §6: what a call holds follows what it returns, not what it asks to skip.
  log('running: bounds, the MCP server answering a deep grep page and a notebook of a million outputs');
  const directory = join(cacheDirectory(), 'bounds');
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, 'many.txt'), 'a\n'.repeat(150_000));
  await writeFile(join(directory, 'million.ipynb'), JSON.stringify({ cells: [{ cell_type: 'code', source: 'x', outputs: Array.from({ length: 1_000_000 }, () => ({})) }], metadata: {}, nbformat: 4 }));
  const peak = (tool: string, input: Record<string, unknown>) => {
    const stdout = execFileSync(process.execPath, [join(project, 'bounds.mjs'), JSON.stringify({ command: process.execPath, args: [bin, 'mcp', '--cwd', directory], tool, arguments: input })], { cwd: project, encoding: 'utf8' });
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { vmHwmKiB: number; summary: string };
  };
  const cases: [string, string, Record<string, unknown>][] = [
    ['grep content, offset 1e9, before/after 20, 300 KB file', 'grep', { pattern: 'a', mode: 'content', path: 'many.txt', offset: 1e9, before: 20, after: 20 }],
    ['read, a 3 MB notebook of 1,000,000 empty outputs', 'read', { path: 'million.ipynb' }],
    ['read, one line (the server at rest, for reference)', 'read', { path: 'many.txt', limit: 1 }],
  ];
  lines.push('', '| bounds: one MCP call | server VmHWM | target | result |', '|---|---|---|---|');
  for (const [name, tool, input] of cases) {
    const measured = peak(tool, input);
    lines.push(`| ${name} | ${mib(measured.vmHwmKiB)} | < 300 MiB | ${measured.summary.replaceAll('|', '\\|')} |`);
  }
}
if (wanted('one-cpu')) {
  // A one-CPU machine has one worker walk the whole tree as one task: what it skips must not overflow anything.
  log('running: one-cpu, the MCP server on CPU 0 searching past 240,000 ignored files, then the next call');
  const tree = await makeIgnoredFilesTree(log);
  try {
    const stdout = execFileSync(
      process.execPath,
      [join(project, 'one-cpu.mjs'), JSON.stringify({ command: 'taskset', args: ['-c', '0', process.execPath, bin, 'mcp', '--cwd', tree.root], grep: { pattern: 'needle', maxResults: ALL }, next: { tool: 'read', arguments: { path: tree.readable } } })],
      { cwd: project, encoding: 'utf8' },
    );
    const measured = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { grepMs: number; grep: string; nextMs: number; next: string; alive: boolean };
    lines.push('', `| one CPU: ${tree.ignored.toLocaleString('en')} ignored files | time | answer |`, '|---|---|---|');
    lines.push(`| grep \`needle\` | ${ms(measured.grepMs)} | ${measured.grep.replaceAll('|', '\\|')} |`);
    lines.push(`| the next call (read) | ${ms(measured.nextMs)} | ${measured.next.replaceAll('|', '\\|')} |`);
    lines.push(`| server alive after both | – | ${measured.alive ? 'yes' : 'NO'} |`);
  } finally {
    await rm(tree.base, { recursive: true, force: true });
  }
}
console.log([...lines, ...commandLines].join('\n'));
