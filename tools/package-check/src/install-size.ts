import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { installInFreshProject, PACKAGES, type PackageFolder } from './pack.ts';

const run = promisify(execFile);

/**
 * The two projects docs/benchmarks.md measures: an agent product that
 * embeds the tools, and one that runs the command. Nothing is on the
 * registry, so each takes the tarballs of the @openwork packages it needs.
 */
export const CONSUMERS = {
  library: ['tool-contract', 'path-guard', 'tree-search', 'fs-backend', 'process-backend', 'toolset-finalizer', 'bash-classifier', 'builtin-tools'],
  cli: PACKAGES,
} as const satisfies Record<string, readonly PackageFolder[]>;

export type ConsumerName = keyof typeof CONSUMERS;

export interface InstallSize {
  /** `du -sk node_modules`, in bytes: what the install takes on disk. */
  readonly diskBytes: number;
  /** The sum of the files' sizes. */
  readonly apparentBytes: number;
  /** Every package installed, at any depth (`name@version`), sorted. */
  readonly packages: readonly string[];
  /** The largest packages in node_modules, on disk, biggest first. */
  readonly largest: readonly { readonly name: string; readonly diskBytes: number }[];
}

/** Installs one consumer's tarballs into `project`. */
export async function installConsumer(project: string, consumer: ConsumerName, tarballs: ReadonlyMap<string, string>): Promise<void> {
  await installInFreshProject(
    project,
    CONSUMERS[consumer].map((name) => {
      const tarball = tarballs.get(name);
      if (tarball === undefined) throw new Error(`no tarball for ${name}`);
      return tarball;
    }),
  );
}

/** How much an installed project's node_modules weighs, and what is in it. */
export async function measureInstall(project: string): Promise<InstallSize> {
  const modules = join(project, 'node_modules');
  const kib = async (...args: string[]) => (await run('du', ['-sk', ...args], { maxBuffer: 1 << 24 })).stdout;
  const total = Number.parseInt(await kib(modules), 10) * 1024;
  const apparent = Number.parseInt((await run('du', ['-sb', modules])).stdout, 10);
  const found = await installedPackages(modules);
  const topLevel = [...new Set(found.map((entry) => entry.path.slice(modules.length + 1).split('/node_modules/')[0] ?? entry.path))];
  const largest = (await kib(...topLevel.map((name) => join(modules, name))))
    .trim()
    .split('\n')
    .map((line) => {
      const [size = '0', path = ''] = line.split('\t');
      return { name: path.slice(modules.length + 1), diskBytes: Number.parseInt(size, 10) * 1024 };
    })
    .sort((a, b) => b.diskBytes - a.diskBytes)
    .slice(0, 10);
  return { diskBytes: total, apparentBytes: apparent, packages: found.map((entry) => entry.id).sort(), largest };
}

/** Every package folder under a node_modules tree, nested ones included. */
async function installedPackages(modules: string): Promise<{ id: string; path: string }[]> {
  const found: { id: string; path: string }[] = [];
  const visit = async (folder: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      if (entry.name.startsWith('@')) {
        await visit(path);
        continue;
      }
      const manifest = await readFile(join(path, 'package.json'), 'utf8').then(
        (text) => JSON.parse(text) as { name?: string; version?: string },
        () => undefined,
      );
      if (manifest?.name !== undefined) found.push({ id: `${manifest.name}@${manifest.version ?? '?'}`, path });
      await visit(join(path, 'node_modules'));
    }
  };
  await visit(modules);
  return found;
}
