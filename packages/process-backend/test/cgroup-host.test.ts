import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cleanAbandonedCgroups, detectContainment } from '../src/cgroup/index.ts';
import { PipeProcessBackend } from '../src/pipe/index.ts';
import { parentDirectories } from '../src/cgroup/cgroup-layout.ts';
import { commandCgroupName, currentOwner } from '../src/cgroup/cgroup-owner.ts';
import { placementShim } from '../src/cgroup/placement-shim.ts';
import { eventually, killLeftovers, pidsWithMarker, uniqueSleep } from '../src/contract-suite/contract-helpers.ts';
import type { CgroupContainment } from '../src/containment.ts';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const entry = (path: string) => pathToFileURL(fileURLToPath(new URL(`../src/${path}`, import.meta.url))).href;
const report = await detectContainment();

function cgroupOrSkip(skip: (note: string) => never): CgroupContainment {
  if (report.kind !== 'cgroup') return skip(`no usable cgroup on this host: ${report.reason}`);
  return report;
}

/** The parents a test makes its own cgroups under: never the v1 memory hierarchy, which is not needed to hold a process. */
function parentsOf(containment: CgroupContainment): string[] {
  const { unified, pids, freezer } = containment.parents;
  return [...new Set([unified, pids, freezer].filter((parent): parent is string => parent !== undefined))];
}

function cgroupsNamedFor(pid: number): string[] {
  if (report.kind !== 'cgroup') return [];
  return parentDirectories(report).flatMap((parent) => readdirSync(parent).filter((name) => name.startsWith(`openwork-${pid}-`)));
}

/** The scratch directories a host process made (its pid is in their names). */
function scratchOf(pid: number): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith(`openwork-scratch-${pid}-`));
}

describe('detectContainment', () => {
  it('says what it found and why, and every parent it names exists', () => {
    expect(report.reason).not.toBe('');
    if (report.kind === 'cgroup') {
      for (const parent of parentDirectories(report)) expect(existsSync(parent), parent).toBe(true);
      expect(report.version === 2 ? report.parents.unified : report.parents.pids).toBeDefined();
    }
  });

  it('falls back to process groups, saying why, when the configured parent is unusable', async () => {
    const fallback = await detectContainment({ cgroupParent: `/openwork-no-such-parent-${randomBytes(4).toString('hex')}` });
    expect(fallback.kind).toBe('process_group');
    expect(fallback.reason).toMatch(/no usable cgroup: .*process group/);
  });

  it('a configured parent is used in every hierarchy', async ({ skip }) => {
    const own = cgroupOrSkip(skip);
    const name = commandCgroupName(await currentOwner());
    const made = parentsOf(own).map((parent) => join(parent, name));
    try {
      for (const directory of made) await mkdir(directory);
      const configured = await detectContainment({ cgroupParent: `/${name}` });
      expect(configured.kind).toBe('cgroup');
      if (configured.kind === 'cgroup') for (const parent of [configured.parents.unified, configured.parents.pids].filter(Boolean)) expect(parent?.endsWith(`/${name}`)).toBe(true);
    } finally {
      for (const directory of made) await rmdir(directory).catch(() => undefined);
    }
  });
});

describe('the placement shim', () => {
  it('writes its pid into every file, then becomes the command', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'placement-'));
    try {
      const files = [join(directory, 'a'), join(directory, 'b')];
      const shim = placementShim(files, ['sh', '-c', 'echo "$$"']);
      const { stdout } = await run(shim.argv[0] ?? '', shim.argv.slice(1));
      for (const file of files) expect((await readFile(file, 'utf8')).trim()).toBe(stdout.trim());
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('does not run the command when a write fails, and says so with its nonce', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'placement-'));
    try {
      const ran = join(directory, 'ran');
      const shim = placementShim(['/proc/openwork-no-such-file/cgroup.procs'], ['touch', ran]);
      const failed: { code?: number; stderr?: string } = await run(shim.argv[0] ?? '', shim.argv.slice(1)).then(
        () => ({}),
        (error: { code?: number; stderr?: string }) => error,
      );
      expect(failed.code).toBe(125);
      expect(shim.failedWrite(failed.code ?? null, failed.stderr ?? '')).toBe('/proc/openwork-no-such-file/cgroup.procs');
      expect(existsSync(ran)).toBe(false);
      // A command's own 125, or the text without the nonce, is not a placement failure.
      expect(shim.failedWrite(125, 'openwork-placement-failed-0000 /x')).toBeUndefined();
      expect(shim.failedWrite(1, failed.stderr ?? '')).toBeUndefined();
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe('cgroups of a crashed run', () => {
  it('are ended and removed; live owners, other namespaces and other names are never touched', async ({ skip }) => {
    const own = cgroupOrSkip(skip);
    const self = await currentOwner();
    const gone = spawn('true');
    const deadPid = await new Promise<number>((resolve) => gone.once('exit', () => resolve(gone.pid ?? 0)));
    const hex = () => randomBytes(6).toString('hex');
    const names = {
      dead: `openwork-${deadPid}-1-${self.pidNamespace}-${hex()}`,
      live: commandCgroupName(self),
      otherNamespace: `openwork-${deadPid}-1-${self.pidNamespace + 1}-${hex()}`,
      foreign: `openwork-test-foreign-${hex()}`,
    };
    const marker = uniqueSleep(300);
    const made = Object.values(names).flatMap((name) => parentsOf(own).map((parent) => join(parent, name)));
    const sleeper = spawn('sleep', [marker], { detached: true, stdio: 'ignore' });
    await new Promise((resolve) => sleeper.once('spawn', resolve));
    try {
      for (const directory of made) await mkdir(directory);
      for (const parent of parentsOf(own)) await writeFile(join(parent, names.dead, 'cgroup.procs'), String(sleeper.pid));
      const cleanup = await cleanAbandonedCgroups(own);
      expect(cleanup.removed).toContain(names.dead);
      expect(cleanup.processesEnded).toBeGreaterThanOrEqual(1);
      await eventually(() => pidsWithMarker(marker).length === 0, 5_000, 'the abandoned sleep to end');
      for (const parent of parentsOf(own)) {
        expect(existsSync(join(parent, names.dead))).toBe(false);
        for (const kept of [names.live, names.otherNamespace, names.foreign]) expect(existsSync(join(parent, kept)), kept).toBe(true);
      }
    } finally {
      killLeftovers(marker);
      for (const directory of made.reverse()) await rmdir(directory).catch(() => undefined);
    }
  });
});

/**
 * A host process that starts a command with an escaped child, then ends in
 * the given way once the command has printed `started`.
 */
function hostProcess(ending: 'exit' | 'throw' | 'hang', markers: { readonly escaped: string; readonly waiting: string }) {
  const script = [
    `const { PipeProcessBackend } = await import(${JSON.stringify(entry('pipe/index.ts'))});`,
    'const backend = new PipeProcessBackend();',
    `const argv = ['bash', '--noprofile', '--norc', '-c', ${JSON.stringify(`setsid sleep ${markers.escaped} & echo started; sleep ${markers.waiting}; :`)}];`,
    "void backend.run({ argv, cwd: '/tmp', env: { PATH: process.env.PATH }, scratchDirectory: true, signal: new AbortController().signal, onStdout: (chunk) => {",
    "  if (!chunk.includes('started')) return;",
    "  console.log('ready');",
    ending === 'exit' ? '  setTimeout(() => process.exit(3), 100);' : ending === 'throw' ? "  setTimeout(() => { throw new Error('crash'); }, 100);" : '',
    '} });',
  ].join('\n');
  return spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: packageDir, stdio: ['ignore', 'pipe', 'ignore'] });
}

/** Waits until the host's command runs, then SIGKILLs the host: no exit hook runs, and its cgroups and the escaped sleep stay behind. */
async function killOnceRunning(host: ReturnType<typeof hostProcess>, markers: { readonly escaped: string }): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    host.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
    host.once('exit', () => reject(new Error('the host ended before its command started')));
  });
  const exited = new Promise((resolve) => host.once('exit', resolve));
  host.kill('SIGKILL');
  await exited;
  await eventually(() => pidsWithMarker(markers.escaped).length > 0, 5_000, 'the escaped sleep');
}

describe('when the host process ends', () => {
  for (const ending of ['exit', 'throw'] as const) {
    it(`${ending === 'exit' ? 'process.exit' : 'an uncaught error'} ends every cgroup it made and removes them`, async ({ skip }) => {
      cgroupOrSkip(skip);
      const markers = { escaped: uniqueSleep(300), waiting: uniqueSleep(301) };
      const host = hostProcess(ending, markers);
      try {
        const exited = new Promise<number | null>((resolve) => host.once('exit', (code) => resolve(code)));
        expect(await exited).toBe(ending === 'exit' ? 3 : 1);
        expect(pidsWithMarker(markers.escaped)).toEqual([]);
        expect(pidsWithMarker(markers.waiting)).toEqual([]);
        expect(cgroupsNamedFor(host.pid ?? 0)).toEqual([]);
        expect(scratchOf(host.pid ?? 0), 'its scratch directory').toEqual([]);
      } finally {
        host.kill('SIGKILL');
        killLeftovers(markers.escaped);
        killLeftovers(markers.waiting);
      }
    }, 30_000);
  }

  it('a new backend ends what a SIGKILLed run left on its first use, before running its own command', async ({ skip }) => {
    cgroupOrSkip(skip);
    const markers = { escaped: uniqueSleep(302), waiting: uniqueSleep(303) };
    const host = hostProcess('hang', markers);
    const backend = new PipeProcessBackend({ killGraceMs: 300 });
    try {
      await killOnceRunning(host, markers);
      expect(scratchOf(host.pid ?? 0), 'the killed run left its scratch directory').toHaveLength(1);
      const result = await backend.run({ argv: ['true'], cwd: tmpdir(), env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, signal: new AbortController().signal });
      expect(result).toMatchObject({ status: 'exited', exitCode: 0, containment: 'cgroup' });
      // Another test file's backend may have cleaned up first; either way nothing the killed run left is still there.
      expect(pidsWithMarker(markers.escaped)).toEqual([]);
      expect(scratchOf(host.pid ?? 0), 'its scratch directory').toEqual([]);
      expect(pidsWithMarker(markers.waiting)).toEqual([]);
      expect(cgroupsNamedFor(host.pid ?? 0)).toEqual([]);
    } finally {
      await backend.dispose();
      host.kill('SIGKILL');
      killLeftovers(markers.escaped);
      killLeftovers(markers.waiting);
    }
  }, 30_000);

  it('a SIGKILL leaves its cgroups to the next start, which ends them', async ({ skip }) => {
    const own = cgroupOrSkip(skip);
    const markers = { escaped: uniqueSleep(300), waiting: uniqueSleep(301) };
    const host = hostProcess('hang', markers);
    try {
      await killOnceRunning(host, markers);
      const left = cgroupsNamedFor(host.pid ?? 0);
      expect(left.length).toBeGreaterThanOrEqual(1);
      const cleanup = await cleanAbandonedCgroups(own);
      for (const name of left) expect(cleanup.removed).toContain(name);
      expect(cleanup.processesEnded).toBeGreaterThanOrEqual(2);
      expect(pidsWithMarker(markers.escaped)).toEqual([]);
      expect(pidsWithMarker(markers.waiting)).toEqual([]);
      expect(cgroupsNamedFor(host.pid ?? 0)).toEqual([]);
    } finally {
      host.kill('SIGKILL');
      killLeftovers(markers.escaped);
      killLeftovers(markers.waiting);
    }
  }, 30_000);
});
