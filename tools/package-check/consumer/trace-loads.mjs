// Preloaded with `node --import ./trace-loads.mjs`: appends every module the
// process loads to the file named by OPENWORK_TRACE_LOADS, ES modules from
// the load hook (trace-loads-hook.mjs, which runs on the loader's thread)
// and CommonJS ones from require's cache when the process exits.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const trace = process.env.OPENWORK_TRACE_LOADS;
if (trace) {
  register(new URL('./trace-loads-hook.mjs', import.meta.url));
  process.on('exit', () => appendFileSync(trace, `${Object.keys(createRequire(import.meta.url).cache).join('\n')}\n`));
}
