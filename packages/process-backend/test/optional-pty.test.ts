import { execFile } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const entry = (path: string) => pathToFileURL(fileURLToPath(new URL(`../src/${path}`, import.meta.url))).href;

/**
 * Imports the given entry points in a fresh Node process, optionally asks the
 * pty backend whether it is available, and reports whether node-pty got loaded:
 * as a CommonJS module in the require cache, and as its native addon mapped
 * into the process.
 */
async function nodePtyLoadedAfter(entries: readonly string[], options: { readonly askPty: boolean }): Promise<{ cjs: boolean; addon: boolean }> {
  const script = [
    "import { createRequire } from 'node:module';",
    "import { readFileSync } from 'node:fs';",
    `for (const url of ${JSON.stringify(entries.map(entry))}) await import(url);`,
    options.askPty ? `const { PtyProcessBackend } = await import(${JSON.stringify(entry('pty/index.ts'))}); await new PtyProcessBackend().availability();` : '',
    "const cjs = Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes('node-pty'));",
    "const addon = process.platform === 'linux' ? readFileSync('/proc/self/maps', 'utf8').includes('pty.node') : cjs;",
    'console.log(JSON.stringify({ cjs, addon }));',
  ].join('\n');
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: packageDir, timeout: 30_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { cjs: boolean; addon: boolean };
}

describe('node-pty stays optional', () => {
  it('importing the root, ./pipe and ./cgroup entry points does not load node-pty', async () => {
    expect(await nodePtyLoadedAfter(['index.ts', 'pipe/index.ts', 'cgroup/index.ts'], { askPty: false })).toEqual({ cjs: false, addon: false });
  }, 30_000);

  it('importing ./pty alone does not load it either; availability() does', async () => {
    // The second half proves the probe can see node-pty, so the first test can fail.
    expect(await nodePtyLoadedAfter(['pty/index.ts'], { askPty: false })).toEqual({ cjs: false, addon: false });
    expect(await nodePtyLoadedAfter(['pty/index.ts'], { askPty: true })).toEqual({ cjs: true, addon: true });
  }, 30_000);
});
