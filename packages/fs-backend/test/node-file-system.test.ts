import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { link, lstat, mkdir, mkdtemp, readdir, readFile, readlink, realpath, rename, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PathGuard } from '@openwork/path-guard';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bytes, expectToolError, text } from '../src/contract-suite/contract-helpers.ts';
import type { FileSystemFixture } from '../src/contract-suite/index.ts';
import { NodeFileSystem } from '../src/node/index.ts';
import { makeNodeFixture } from './fixtures/node-fixture.ts';

const packageDirectory = dirname(dirname(fileURLToPath(import.meta.url)));
const lockDirectory = join(tmpdir(), 'openwork-tools-locks');

let fixture: FileSystemFixture;
let outside: string;
let fs: NodeFileSystem;
let guard: PathGuard;

beforeEach(async () => {
  fixture = await makeNodeFixture();
  outside = await realpath(await mkdtemp(join(tmpdir(), 'fs-backend-outside-')));
  fs = new NodeFileSystem();
  guard = await PathGuard.create({ workingDirectory: fixture.root, probe: fs });
});

afterEach(async () => {
  await fixture.cleanup();
  await rm(outside, { recursive: true, force: true });
});

const at = (relative: string) => join(fixture.root, relative);

function lockFileOf(realPath: string): string {
  return join(lockDirectory, `${createHash('sha256').update(realPath).digest('hex')}.lock`);
}

describe('NodeFileSystem: how the last mile is walked (docs/decisions/0009)', () => {
  it('uses directory handles under /proc/self/fd where Linux has them, and says why; directoryHandles never forces checked paths', () => {
    const detected = fs.directoryHandles;
    if (process.platform === 'linux') expect(detected).toEqual({ mode: 'handles', reason: expect.stringContaining('/proc/self/fd') as string });
    else expect(detected.mode).toBe('paths');
    expect(new NodeFileSystem({ directoryHandles: 'never' }).directoryHandles).toEqual({ mode: 'paths', reason: 'turned off with directoryHandles: never' });
  });

  it.skipIf(process.platform !== 'linux')('leaves no descriptor open: after 500 calls that succeed or are refused, none leads into the tree', async () => {
    await mkdir(at('a/b/c'), { recursive: true });
    await writeFile(at('a/b/c/file.txt'), 'x');
    await symlink(outside, at('a/b/link'));
    // The descriptors of this process that lead into the test's directories: only the last mile opens those.
    const descriptors = async () => {
      const targets = await Promise.all((await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
      return targets.filter((target) => target.startsWith(fixture.root) || target.startsWith(outside));
    };
    const calls = async () => {
      const file = await guard.resolvePath('a/b/c/file.txt', 'write', 'must_exist');
      const directory = await guard.resolvePath('a/b/c', 'read', 'must_exist');
      await fs.readFile(file, { maxBytes: 1024 });
      // A streamed read left after its first chunk closes its file as one read to the end does.
      for await (const chunk of fs.readFileChunks(file, { chunkBytes: 1 })) if (chunk.length > 0) break;
      for await (const chunk of fs.readFileChunks(file, { chunkBytes: 1 })) expect(chunk.length).toBe(1);
      await fs.writeFile(file, bytes('y'), { expectedSha256: null }).catch(() => undefined);
      await fs.readDirectory(directory);
      await fs.searchTree(await guard.resolvePath('.', 'read', 'must_exist'), { mode: 'files', pattern: { source: 'x', caseInsensitive: false }, maxResults: 10, maxLineChars: 100, maxFileBytes: 1024, binarySniffBytes: 0 }, { guard });
      await fs.stat(await guard.resolvePath('a/b/link', 'read', 'must_exist').catch(() => directory));
    };
    for (let round = 0; round < 50; round += 1) await calls();
    expect(await descriptors()).toEqual([]);
  });
});

describe.each(['auto', 'never'] as const)('NodeFileSystem (directoryHandles %s): what changes between the check and the use (docs/design.md §8)', (directoryHandles) => {
  beforeEach(async () => {
    await fs.close();
    fs = new NodeFileSystem({ directoryHandles });
    guard = await PathGuard.create({ workingDirectory: fixture.root, probe: fs });
  });

  it('a symlink to an outside file swapped in after the check is refused: the outside bytes are never returned', async () => {
    await writeFile(join(outside, 'secret.txt'), 'OUTSIDE SECRET');
    await writeFile(at('a.txt'), 'inside');
    const path = await guard.resolvePath('a.txt', 'read', 'must_exist');
    await rm(at('a.txt'));
    await symlink(join(outside, 'secret.txt'), at('a.txt'));
    const message = await expectToolError(fs.readFile(path, { maxBytes: 1024 }), 'stale');
    expect(message).not.toContain('OUTSIDE SECRET');
  });

  it('a directory swapped for a symlink to outside after the check is not listed through', async () => {
    await mkdir(at('sub'));
    await writeFile(join(outside, 'outside-entry.txt'), 'x');
    const path = await guard.resolvePath('sub', 'read', 'must_exist');
    await rm(at('sub'), { recursive: true });
    await symlink(outside, at('sub'));
    await expectToolError(fs.readDirectory(path), 'stale');
  });

  it('a parent swapped for a symlink to outside after the check is stale, and nothing is written outside', async () => {
    await mkdir(at('sub'));
    const path = await guard.resolvePath('sub/file.txt', 'write', 'may_create');
    await rename(at('sub'), at('sub-moved'));
    await symlink(outside, at('sub'));
    await expectToolError(fs.writeFile(path, bytes('data')), 'stale');
    expect(await readdir(outside)).toEqual([]);
    expect(await readdir(at('sub-moved'))).toEqual([]);
  });

  it('a FIFO swapped in after the check is not_a_file at once, never a hang', { timeout: 10_000 }, async () => {
    await writeFile(at('a.txt'), 'regular');
    const path = await guard.resolvePath('a.txt', 'read', 'must_exist');
    await rm(at('a.txt'));
    await fixture.fifo(at('a.txt'));
    await expectToolError(fs.readFile(path, { maxBytes: 1024 }), 'not_a_file');
  });

  it('a device is not_a_file, never read: /dev/zero and /dev/null in a read-only root', { timeout: 10_000 }, async () => {
    const devices = await PathGuard.create({ workingDirectory: fixture.root, readOnlyRoots: ['/dev'], probe: fs });
    for (const device of ['/dev/zero', '/dev/null']) {
      const path = await devices.resolvePath(device, 'read', 'must_exist');
      await expectToolError(fs.readFile(path, { maxBytes: 1024 }), 'not_a_file');
    }
  });

  it('writing through a hard link to an outside file replaces only the entry in the root: the outside bytes are unchanged', async () => {
    await writeFile(join(outside, 'shared.txt'), 'OUTSIDE ORIGINAL');
    await link(join(outside, 'shared.txt'), at('link.txt'));
    expect((await stat(at('link.txt'))).nlink).toBe(2);
    const path = await guard.resolvePath('link.txt', 'write', 'must_exist');
    const result = await fs.writeFile(path, bytes('new inside content'));
    expect(result.created).toBe(false);
    expect(await readFile(join(outside, 'shared.txt'), 'utf8')).toBe('OUTSIDE ORIGINAL');
    expect(await readFile(at('link.txt'), 'utf8')).toBe('new inside content');
  });

  it('a symlink swapped in at the target after the check is replaced by the write, not written through', async () => {
    await writeFile(join(outside, 'victim.txt'), 'OUTSIDE ORIGINAL');
    await writeFile(at('a.txt'), 'inside');
    const path = await guard.resolvePath('a.txt', 'write', 'must_exist');
    await rm(at('a.txt'));
    await symlink(join(outside, 'victim.txt'), at('a.txt'));
    await fs.writeFile(path, bytes('written'));
    expect(await readFile(join(outside, 'victim.txt'), 'utf8')).toBe('OUTSIDE ORIGINAL');
    expect((await lstat(at('a.txt'))).isFile()).toBe(true);
    expect(await readFile(at('a.txt'), 'utf8')).toBe('written');
  });

  it('a rename that fails (a non-empty directory made at the target after the check) leaves no temp file', async () => {
    const path = await guard.resolvePath('target.txt', 'write', 'may_create');
    await mkdir(at('target.txt'));
    await writeFile(at('target.txt/keep'), 'k');
    await expectToolError(fs.writeFile(path, bytes('data')), 'is_directory');
    expect(await readdir(fixture.root)).toEqual(['target.txt']);
    expect(await readdir(at('target.txt'))).toEqual(['keep']);
  });
});

describe('NodeFileSystem worker threads are a resource of the session', () => {
  it('started on first use, restarted after close(), and never keeping a process alive: a child that searched exits on its own', { timeout: 60_000 }, async () => {
    await writeFile(at('a.txt'), 'a needle\n');
    await writeFile(at('b.txt'), 'hay\n');
    const finished = await runChild('search-then-exit.ts', [fixture.root]);
    expect(finished.stdout.trim()).toBe(JSON.stringify([[{ path: 'a.txt' }], [{ path: 'a.txt' }]]));
    expect(finished.exited, 'the child printed its result and then did not exit').toBe(true);
    expect(finished.code).toBe(0);
  });

  it('close() holds the process until its threads are gone, even when their first message is still unread: what follows the awaited close() runs', { timeout: 60_000 }, async () => {
    const finished = await runChild('close-while-loading.ts', []);
    expect(finished.stdout.trim(), 'the process exited while close() was still waiting').toBe('closed');
    expect(finished.code).toBe(0);
  });

  it('an open search keeps the process alive while its workers load (nothing else does), and the pool lets it exit once the search ends', { timeout: 60_000 }, async () => {
    const finished = await runChild('open-search-then-exit.ts', []);
    expect(finished.stdout.trim(), 'the process exited before the workers were ready').toBe('ready');
    expect(finished.exited, 'the child printed its result and then did not exit').toBe(true);
    expect(finished.code).toBe(0);
  });
});

/** Runs a fixture under test/fixtures as a child process; a child that never exits is killed after 45 s. */
function runChild(name: string, args: readonly string[]): Promise<{ code: number | null; stdout: string; exited: boolean }> {
  const script = join(packageDirectory, 'test', 'fixtures', name);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: packageDirectory, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    // Generous: a hang never ends at all.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: null, stdout, exited: false });
    }, 45_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, exited: true });
    });
  });
}

describe('NodeFileSystem locks', () => {
  it('lock files live outside the user tree: the directory holds only the file, the lock is under the temp dir while held', async () => {
    const path = await guard.resolvePath('a.txt', 'write', 'may_create');
    const lockFile = lockFileOf(at('a.txt'));
    const heldDuring = await fs.withLock(path, async () => {
      await fs.writeFile(path, bytes('content'));
      return (await lstat(lockFile)).isDirectory();
    });
    expect(heldDuring).toBe(true);
    expect(await readdir(fixture.root)).toEqual(['a.txt']);
    await expect(lstat(lockFile)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a lock left by a dead holder is taken over once stale', async () => {
    await writeFile(at('a.txt'), 'x');
    const lockFile = lockFileOf(at('a.txt'));
    await mkdir(lockFile, { recursive: true });
    const longAgo = new Date(Date.now() - 60_000);
    await utimes(lockFile, longAgo, longAgo);
    const path = await guard.resolvePath('a.txt', 'write', 'must_exist');
    expect(await fs.withLock(path, () => Promise.resolve('ran'))).toBe('ran');
    await expect(lstat(lockFile)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('waiting for a lock another process holds ends with cancelled when the signal aborts', async () => {
    await writeFile(at('a.txt'), 'x');
    const lockFile = lockFileOf(at('a.txt'));
    await mkdir(lockFile, { recursive: true });
    try {
      const path = await guard.resolvePath('a.txt', 'write', 'must_exist');
      const controller = new AbortController();
      let ran = false;
      const waiting = fs.withLock(
        path,
        () => {
          ran = true;
          return Promise.resolve();
        },
        { signal: controller.signal },
      );
      setTimeout(() => controller.abort(), 100);
      await expectToolError(waiting, 'cancelled');
      expect(ran).toBe(false);
    } finally {
      await rm(lockFile, { recursive: true, force: true });
    }
  });

  it('serializes across processes: two children doing 20 locked increments each end at 40', { timeout: 120_000 }, async () => {
    await writeFile(at('counter.txt'), '0');
    const script = join(packageDirectory, 'test', 'fixtures', 'locked-counter.ts');
    const runChild = () =>
      new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', script, fixture.root, 'counter.txt', '20'], {
          cwd: packageDirectory,
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          stderr += chunk;
        });
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stderr }));
      });
    const results = await Promise.all([runChild(), runChild()]);
    for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0 });
    expect(text(new Uint8Array(await readFile(at('counter.txt'))))).toBe('40');
    expect(await readdir(fixture.root)).toEqual(['counter.txt']);
  });
});
