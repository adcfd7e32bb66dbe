// One-shot command searches of two installs, alternating: the built command
// before and after a change, the same corpus, the same machine load.
//   node one-shot-compare.mjs '{"before": "/path/openwork-tools.js", "after": "/path/openwork-tools.js", "cwd": "...", "runs": 3}'
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

const spec = JSON.parse(process.argv[2] ?? '{}');
const ALL = 1_000_000;
const calls = [
  ['grep literal', 'grep', { pattern: 'createElement', maxResults: ALL }],
  ['grep regex', 'grep', { pattern: 'function\\s+use[A-Z]\\w+', maxResults: ALL }],
  ['grep -i', 'grep', { pattern: 'deprecated', caseInsensitive: true, maxResults: ALL }],
  ['grep content', 'grep', { pattern: 'TODO', mode: 'content', maxResults: ALL }],
  ['grep TODO|FIXME', 'grep', { pattern: 'TODO|FIXME', maxResults: ALL }],
  ['glob **/*.js', 'glob', { pattern: '**/*.js', maxResults: 2000 }],
];
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const time = (bin, tool, input) => {
  const started = performance.now();
  const run = spawnSync(process.execPath, [bin, 'call', tool, JSON.stringify(input), '--cwd', spec.cwd, '--json'], { cwd: spec.cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  if (run.status !== 0) throw new Error(`${tool} exited ${run.status}`);
  return performance.now() - started;
};
const rows = [];
for (const [name, tool, input] of calls) {
  const before = [];
  const after = [];
  for (let round = 0; round < (spec.runs ?? 3); round += 1) {
    if (round % 2 === 0) {
      before.push(time(spec.before, tool, input));
      after.push(time(spec.after, tool, input));
    } else {
      after.push(time(spec.after, tool, input));
      before.push(time(spec.before, tool, input));
    }
  }
  rows.push({ name, before: median(before), after: median(after) });
}
console.log(JSON.stringify(rows));
