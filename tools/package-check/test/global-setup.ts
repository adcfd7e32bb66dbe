// Packs every package and installs the tarballs with npm once per run, for
// every test file here: the project that runs the command and the clients,
// and the library install of a product that embeds the tools.
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { ensureBuilt, installConsumer, packAndInstall } from '../src/index.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of this run: tarballs, projects, anything a test writes. */
    packageCheckBase: string;
    /** Every package installed from its tarball, with the client SDKs the scripts in clients/ use. */
    packageCheckProject: string;
    /** The packages a product that embeds the tools installs, alone. */
    packageCheckLibrary: string;
    /** Package folder name → its tarball. */
    packageCheckTarballs: Record<string, string>;
  }
}

const here = fileURLToPath(new URL('..', import.meta.url));
const workspace = fileURLToPath(new URL('../../../', import.meta.url));

/** A registry package at the range a workspace manifest gives it, so the install takes what the workspace tests. */
async function atWorkspaceRange(manifest: string, name: string): Promise<string> {
  const parsed = JSON.parse(await readFile(join(workspace, manifest), 'utf8')) as Record<string, Record<string, string> | undefined>;
  const range = parsed.dependencies?.[name] ?? parsed.devDependencies?.[name];
  if (range === undefined) throw new Error(`${manifest} names no ${name}`);
  return `${name}@${range}`;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const base = await mkdtemp(join(tmpdir(), 'pack-install-'));
  await ensureBuilt();
  // The clients' SDKs: the MCP SDK's client (the command already depends on the SDK) and the AI SDK.
  const clients = [await atWorkspaceRange('packages/cli/package.json', '@modelcontextprotocol/sdk'), await atWorkspaceRange('packages/toolset-finalizer/package.json', 'ai')];
  const { project: installed, tarballs } = await packAndInstall(base, clients);
  const library = join(base, 'library');
  await installConsumer(library, 'library', tarballs);
  for (const file of ['consumer.mjs', 'trace-loads.mjs', 'trace-loads-hook.mjs']) await copyFile(join(here, 'consumer', file), join(installed, file));
  project.provide('packageCheckBase', base);
  project.provide('packageCheckProject', installed);
  project.provide('packageCheckLibrary', library);
  project.provide('packageCheckTarballs', Object.fromEntries(tarballs));
  return () => rm(base, { recursive: true, force: true });
}
