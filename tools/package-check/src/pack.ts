import { execFile } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** How long one npm install may take before it is ended and tried once more. */
const INSTALL_TIMEOUT_MS = 150_000;

const workspaceRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Every published package, in dependency order. */
export const PACKAGES = ['tool-contract', 'path-guard', 'tree-search', 'fs-backend', 'process-backend', 'toolset-finalizer', 'bash-classifier', 'builtin-tools', 'permission-policy', 'cli'] as const;

export type PackageFolder = (typeof PACKAGES)[number];

export interface InstalledProject {
  /** A project that has never seen the workspace, with the tarballs installed by npm. */
  readonly project: string;
  /** Package directory name → its tarball. */
  readonly tarballs: ReadonlyMap<string, string>;
}

export interface PackOptions {
  /** The repository whose packages are packed; default this one (another is a copy of an earlier commit, to compare). */
  readonly repository?: string;
}

/**
 * Builds the packages when any of them is not built, as its prepack guard
 * (tools/scripts/publish-guard.ts, run here the way pnpm runs it) decides.
 * Under nx the test target's `^build` has built them already; a run of the
 * test on its own builds what changed since.
 */
export async function ensureBuilt(options: PackOptions = {}): Promise<void> {
  const repository = options.repository ?? workspaceRoot;
  const guarded = await Promise.all(
    PACKAGES.map((name) => run('pnpm', ['run', '--silent', 'prepack'], { cwd: join(repository, 'packages', name) }).then(() => true, () => false)),
  );
  if (guarded.every(Boolean)) return;
  // pnpm runs the builds in dependency order: each package's types come from its dependencies' dist/.
  await run('pnpm', ['--recursive', '--filter', './packages/*', 'run', 'build'], { cwd: repository, maxBuffer: 1 << 24 });
}

/**
 * Packs every package as it would be published (dist/ must be built; pnpm
 * applies publishConfig and resolves workspace versions) into `destination`.
 */
export async function packPackages(destination: string, options: PackOptions = {}): Promise<ReadonlyMap<PackageFolder, string>> {
  const repository = options.repository ?? workspaceRoot;
  await mkdir(destination, { recursive: true });
  // The README's command: every public package of the workspace at once, each through its prepack guard.
  await run('pnpm', ['-r', 'pack', '--pack-destination', destination], { cwd: repository, maxBuffer: 1 << 26 });
  const tarballs = new Map<PackageFolder, string>();
  for (const file of await readdir(destination)) {
    const name = PACKAGES.find((candidate) => file.startsWith(`openwork-${candidate}-`));
    if (name !== undefined) tarballs.set(name, join(destination, file));
  }
  return tarballs;
}

/**
 * Installs tarballs, and any `extra` registry packages, with npm into a new
 * project at `project`, as someone outside the workspace would.
 */
export async function installInFreshProject(project: string, specs: readonly string[]): Promise<void> {
  await mkdir(project, { recursive: true });
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // --prefer-offline: what npm has cached already (the packages of an earlier
  // install of this run, or of another) is taken without asking the registry again.
  const install = () =>
    run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...specs], {
      cwd: project,
      // node-pty (optional) compiles against the system's Node headers.
      env: { ...process.env, npm_config_nodedir: process.env.npm_config_nodedir ?? '/usr' },
      maxBuffer: 1 << 24,
      // An install stuck on a registry connection that never answers is ended, not left behind.
      timeout: INSTALL_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    });
  try {
    await install();
  } catch (error) {
    // Killed on its timeout: once more, on a new connection; any other failure is the answer.
    if ((error as { killed?: boolean }).killed !== true) throw error;
    await install();
  }
}

/**
 * Packs every package, then installs all the tarballs at once, and any
 * `extra` registry packages, with npm into `base/project`.
 */
export async function packAndInstall(base: string, extra: readonly string[] = []): Promise<InstalledProject> {
  const tarballs = await packPackages(join(base, 'tarballs'));
  const project = join(base, 'project');
  // In the order `npm install DIR/*.tgz` gives them, as the README installs them.
  await installInFreshProject(project, [...[...tarballs.values()].sort(), ...extra]);
  return { project, tarballs };
}
