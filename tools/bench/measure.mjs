// One in-process measurement in a fresh process, run from the packages as
// installed from their tarballs (plain JavaScript, no loader), so that the
// peak RSS belongs to this call alone.
//   node measure.mjs '{"cwd": "...", "tool": "grep", "input": {...}, "readWorkers": 1}'
// prints {"ms": …, "maxRssKiB": …, "summary": "…"}.
import { performance } from 'node:perf_hooks';
import { builtinTools, DEFAULT_LIMITS, ReadLedger } from '@openwork/builtin-tools';
import { NodeFileSystem } from '@openwork/fs-backend/node';
import { PathGuard } from '@openwork/path-guard';
import { PipeProcessBackend } from '@openwork/process-backend/pipe';
import { TurnScope } from '@openwork/tool-contract';
import { Registry } from '@openwork/toolset-finalizer';

/** What came back, to check that both sides did the same work. */
function summarize(data) {
  if (data === null || typeof data !== 'object') return String(data);
  for (const key of ['files', 'matches', 'counts', 'paths']) {
    if (Array.isArray(data[key])) return `${data[key].length} ${key}${data.truncated === true ? ' (truncated)' : ''}`;
  }
  if (typeof data.status === 'string') return `${data.status}, ${data.stdout?.totalBytes ?? 0} bytes`;
  return Object.keys(data).join(',');
}

const spec = JSON.parse(process.argv[2] ?? '{}');
const filesystem = new NodeFileSystem(spec.readWorkers === undefined ? {} : { readWorkers: spec.readWorkers });
const session = {
  workingDirectory: spec.cwd,
  environment: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: spec.cwd },
  paths: await PathGuard.create({ workingDirectory: spec.cwd, probe: filesystem }),
  filesystem,
  processes: new PipeProcessBackend(),
  limits: { ...DEFAULT_LIMITS, ...spec.limits },
  readLedger: new ReadLedger(),
};
const registry = new Registry();
for (const tool of builtinTools()) registry.register(tool);
const toolset = registry.finalize(session);
const active = new TurnScope().startCall({ callId: 'bench' });
const allow = () => Promise.resolve({ verdict: 'allow', reason: 'benchmark', rule: 'bench' });
const started = performance.now();
const result = await toolset.call(spec.tool, spec.input, active.context, { authorize: allow });
const ms = performance.now() - started;
active.end();
await session.processes.dispose();
await filesystem.close();
if (result.status !== 'ok') {
  console.error(result.output);
  process.exit(1);
}
console.log(JSON.stringify({ ms, maxRssKiB: process.resourceUsage().maxRSS, summary: summarize(result.data) }));
