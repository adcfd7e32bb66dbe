// The load hook of trace-loads.mjs: one line per ES module (or CommonJS
// module reached through import) as it is loaded.
import { appendFileSync } from 'node:fs';

export async function load(url, context, nextLoad) {
  appendFileSync(process.env.OPENWORK_TRACE_LOADS, `${url}\n`);
  return nextLoad(url, context);
}
