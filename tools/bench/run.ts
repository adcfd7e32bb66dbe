// pnpm bench: our tools against ripgrep and the raw pipe, measured
// alternately in the same run; prints a markdown table of medians and ratios.
//   pnpm bench [--runs N] [--only name,name] [--quick]
import { execFileSync, spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { ensureCorpus, ensureIgnoredLogTrees } from './corpus.ts';
import type { Measurement, MeasureSpec } from './measure.ts';
import { median, mib, ms, ratio } from './stats.ts';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
};
const quick = args.includes('--quick');
const runs = Number(flag('--runs') ?? (quick ? 1 : 5));
const only = flag('--only')?.split(',');
const log = (line: string) => console.error(`# ${line}`);

const repository = fileURLToPath(new URL('../../', import.meta.url));
const measureScript = fileURLToPath(new URL('./measure.ts', import.meta.url));
const cliBin = fileURLToPath(new URL('../../packages/cli/bin/openwork-tools.js', import.meta.url));

/** Wall time of a command whose output is discarded. */
function timeCommand(argv: readonly string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(argv[0] ?? '', argv.slice(1), { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => {
      // rg exits 1 when nothing matched; both are a finished search.
      if (code === 0 || (code === 1 && argv[0] === 'rg')) resolve(performance.now() - started);
      else reject(new Error(`${argv.join(' ')} exited ${code}`));
    });
  });
}

/** One in-process call of our tool in a fresh process: its own time and peak RSS. */
function measureInProcess(spec: MeasureSpec): Measurement {
  const stdout = execFileSync(process.execPath, ['--import', 'tsx', measureScript, JSON.stringify(spec)], { cwd: repository, encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Measurement;
}

interface Scenario {
  readonly name: string;
  readonly cwd: string;
  readonly tool: string;
  readonly input: Record<string, unknown>;
  /** The baseline, measured alternately with ours: a command, or our own call in another tree. */
  readonly baseline: readonly string[] | { readonly oursIn: string };
  readonly baselineLabel: string;
  /** Also measure ours through the command. */
  readonly throughCommand: boolean;
  readonly target: string;
}

interface Row {
  readonly scenario: Scenario;
  readonly ours: number;
  readonly command: number | undefined;
  readonly baseline: number;
  readonly maxRssKiB: number;
  readonly summary: string;
}

async function runScenario(scenario: Scenario): Promise<Row> {
  const ours: number[] = [];
  const command: number[] = [];
  const baseline: number[] = [];
  let maxRssKiB = 0;
  let summary = '';
  const { baseline: base } = scenario;
  const measureBaseline = async () =>
    Array.isArray(base) ? timeCommand(base, scenario.cwd) : measureInProcess({ cwd: (base as { oursIn: string }).oursIn, tool: scenario.tool, input: scenario.input }).ms;
  // Warm the page cache for both sides before anything is counted.
  await measureBaseline();
  measureInProcess({ cwd: scenario.cwd, tool: scenario.tool, input: scenario.input });
  for (let round = 0; round < runs; round += 1) {
    baseline.push(await measureBaseline());
    const measured = measureInProcess({ cwd: scenario.cwd, tool: scenario.tool, input: scenario.input });
    ours.push(measured.ms);
    maxRssKiB = Math.max(maxRssKiB, measured.maxRssKiB);
    summary = measured.summary;
    if (scenario.throughCommand) {
      command.push(await timeCommand([process.execPath, cliBin, 'call', scenario.tool, JSON.stringify(scenario.input), '--cwd', scenario.cwd, '--json'], scenario.cwd));
    }
  }
  return { scenario, ours: median(ours), command: command.length > 0 ? median(command) : undefined, baseline: median(baseline), maxRssKiB, summary };
}

function hasRipgrep(): boolean {
  try {
    execFileSync('rg', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const scenarios: Scenario[] = [];
const BIG = 1_000_000;
// rg is told to search what our grep searches: hidden files too, .gitignore without a git repository, no .git, the same size cap.
const rg = (...rest: string[]) => ['rg', '--hidden', '--no-require-git', '-g', '!.git', '--max-filesize', '4M', ...rest];

scenarios.push({
  name: 'bash: yes | head -c 1G',
  cwd: repository,
  tool: 'bash',
  input: { command: 'yes | head -c 1073741824', timeoutMs: 600_000 },
  baseline: ['bash', '--noprofile', '--norc', '-c', 'yes | head -c 1073741824 > /dev/null'],
  baselineLabel: 'raw pipe',
  throughCommand: false,
  target: '≤ 2.5×, RSS < 128 MiB',
});

const wantsSearch = only === undefined || only.some((name) => !name.startsWith('bash'));
if (wantsSearch && !hasRipgrep()) {
  log('ripgrep (rg) is not installed: apt-get install ripgrep; the search scenarios are skipped');
} else if (wantsSearch) {
  const corpus = await ensureCorpus(log);
  log(`corpus: ${corpus.files} files, ${(corpus.bytes / 1e6).toFixed(0)} MB in ${corpus.root}`);
  const root = corpus.root;
  scenarios.push(
    { name: 'grep literal, files_with_matches', cwd: root, tool: 'grep', input: { pattern: 'createElement', maxResults: BIG }, baseline: rg('-l', '-F', 'createElement'), baselineLabel: 'rg -l', throughCommand: true, target: '≤ 1.5× / ≤ 2×' },
    { name: 'grep regex, files_with_matches', cwd: root, tool: 'grep', input: { pattern: 'function\\s+use[A-Z]\\w+', maxResults: BIG }, baseline: rg('-l', 'function\\s+use[A-Z]\\w+'), baselineLabel: 'rg -l', throughCommand: true, target: '≤ 2× / ≤ 2.5×' },
    { name: 'grep case-insensitive', cwd: root, tool: 'grep', input: { pattern: 'deprecated', caseInsensitive: true, maxResults: BIG }, baseline: rg('-l', '-i', 'deprecated'), baselineLabel: 'rg -l -i', throughCommand: true, target: '≤ 2× / ≤ 2.5×' },
    { name: 'grep content mode', cwd: root, tool: 'grep', input: { pattern: 'TODO', mode: 'content', maxResults: BIG }, baseline: rg('-n', 'TODO'), baselineLabel: 'rg -n', throughCommand: true, target: '≤ 2.5× / ≤ 3×' },
    { name: 'grep early stop at 100', cwd: root, tool: 'grep', input: { pattern: 'export' }, baseline: ['bash', '-c', `${rg('-l', 'export').map((word) => `'${word}'`).join(' ')} | head -100`], baselineLabel: 'rg -l | head -100', throughCommand: false, target: '≤ 1×' },
    { name: 'glob **/*.js', cwd: root, tool: 'glob', input: { pattern: '**/*.js', maxResults: 2000 }, baseline: rg('--files', '-g', '*.js'), baselineLabel: "rg --files -g '*.js'", throughCommand: true, target: '≤ 1.5× / ≤ 2×' },
  );
  const trees = await ensureIgnoredLogTrees(corpus, log);
  scenarios.push({
    name: '.gitignore hides a 200 MB log dir',
    cwd: trees.withLogs,
    tool: 'grep',
    input: { pattern: 'Observable', maxResults: BIG },
    baseline: { oursIn: trees.without },
    baselineLabel: 'ours, same tree without the logs',
    throughCommand: false,
    target: '≤ 1.1×',
  });
}

const selected = scenarios.filter((scenario) => only === undefined || only.some((name) => scenario.name.startsWith(name)));
log(`${cpus().length} cores, node ${process.version}, ${runs} run(s) per scenario, medians`);
const rows: Row[] = [];
for (const scenario of selected) {
  log(`running: ${scenario.name}`);
  rows.push(await runScenario(scenario));
}

console.log(`| scenario | ours in-process | ours through the command | baseline | baseline time | ratio in-process | ratio command | peak RSS | target | result |`);
console.log(`|---|---|---|---|---|---|---|---|---|---|`);
for (const row of rows) {
  const { scenario } = row;
  const inProcess = ratio(row.ours, row.baseline);
  console.log(
    `| ${scenario.name} | ${ms(row.ours)} | ${row.command === undefined ? '–' : ms(row.command)} | ${scenario.baselineLabel} | ${ms(row.baseline)} | ${inProcess} | ${row.command === undefined ? '–' : ratio(row.command, row.baseline)} | ${mib(row.maxRssKiB)} | ${scenario.target} | ${row.summary} |`,
  );
}
