// Builds the command's bundle once per run, the way the package's build does
// (build-bin.mjs), so that each test that needs a real process starts the
// command with plain node instead of a TypeScript loader. It is put under
// node_modules, where the packages it leaves outside the bundle resolve as
// they do for dist/, and where neither lint nor the build looks.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The bundled command, a JavaScript file to start with node. */
    cliBundle: string;
  }
}

const cli = fileURLToPath(new URL('../', import.meta.url));

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cache = join(cli, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const folder = await mkdtemp(join(cache, 'openwork-tools-test-'));
  const bundle = join(folder, 'openwork-tools.js');
  await promisify(execFile)(process.execPath, [join(cli, 'build-bin.mjs'), bundle]);
  project.provide('cliBundle', bundle);
  return () => rm(folder, { recursive: true, force: true });
}
