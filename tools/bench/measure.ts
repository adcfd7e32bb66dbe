// One in-process measurement in a fresh process, so that peak RSS belongs
// to this call alone: `tsx measure.ts '<json spec>'` prints {ms, maxRssKiB, summary}.
import { performance } from 'node:perf_hooks';
import { benchToolset } from './session.ts';

export interface MeasureSpec {
  readonly cwd: string;
  readonly tool: string;
  readonly input: Record<string, unknown>;
}

export interface Measurement {
  readonly ms: number;
  readonly maxRssKiB: number;
  /** What came back, to check that both sides did the same work. */
  readonly summary: string;
}

function summarize(data: unknown): string {
  if (data === null || typeof data !== 'object') return String(data);
  const record = data as Record<string, unknown>;
  for (const key of ['files', 'matches', 'counts', 'paths']) {
    const value = record[key];
    if (Array.isArray(value)) return `${value.length} ${key}${record.truncated === true ? ' (truncated)' : ''}`;
  }
  if (typeof record.status === 'string') {
    const stdout = record.stdout as { totalBytes?: number } | undefined;
    return `${record.status}, ${stdout?.totalBytes ?? 0} bytes`;
  }
  return Object.keys(record).join(',');
}

const spec = JSON.parse(process.argv[2] ?? '{}') as MeasureSpec;
const tools = await benchToolset(spec.cwd);
const started = performance.now();
const result = await tools.call(spec.tool, spec.input);
const elapsed = performance.now() - started;
await tools.dispose();
if (result.status !== 'ok') {
  console.error(result.output);
  process.exit(1);
}
const measurement: Measurement = { ms: elapsed, maxRssKiB: process.resourceUsage().maxRSS, summary: summarize(result.data) };
console.log(JSON.stringify(measurement));
