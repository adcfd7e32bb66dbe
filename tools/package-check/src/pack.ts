import { execFile } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repository = fileURLToPath(new URL('../../../', import.meta.url));

/** Every published package, in dependency order. */
export const PACKAGES = ['tool-contract', 'path-guard', 'fs-backend', 'process-backend', 'toolset-finalizer', 'builtin-tools', 'permission-policy', 'cli'] as const;

export interface InstalledProject {
  /** A project that has never seen the workspace, with the tarballs installed by npm. */
  readonly project: string;
  /** Package directory name → its tarball. */
  readonly tarballs: ReadonlyMap<string, string>;
}

/**
 * Packs every package as it would be published (dist/ must be built; pnpm
 * applies publishConfig and resolves workspace versions), then installs the
 * tarballs, and any `extra` registry packages, with npm into `base/project`.
 */
export async function packAndInstall(base: string, extra: readonly string[] = []): Promise<InstalledProject> {
  const destination = join(base, 'tarballs');
  await mkdir(destination, { recursive: true });
  for (const name of PACKAGES) {
    await run('pnpm', ['pack', '--pack-destination', destination], { cwd: join(repository, 'packages', name) });
  }
  const tarballs = new Map<string, string>();
  for (const file of await readdir(destination)) {
    const name = PACKAGES.find((candidate) => file.startsWith(`openwork-${candidate}-`));
    if (name !== undefined) tarballs.set(name, join(destination, file));
  }
  const project = join(base, 'project');
  await mkdir(project, { recursive: true });
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...PACKAGES.map((name) => tarballs.get(name) ?? name), ...extra], {
    cwd: project,
    // node-pty (optional) compiles against the system's Node headers.
    env: { ...process.env, npm_config_nodedir: process.env.npm_config_nodedir ?? '/usr' },
    maxBuffer: 1 << 24,
  });
  return { project, tarballs };
}
