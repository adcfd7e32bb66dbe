import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PathGuard } from '@openwork/path-guard';
import { describe, expect, it } from 'vitest';
import { isToolError } from '@openwork/tool-contract';
import { bytes, expectToolError, text } from '../src/contract-suite/contract-helpers.ts';
import { MemoryFileSystem } from '../src/memory/index.ts';
import { hostModules, importGraph } from './fixtures/import-graph.ts';
import { callOnce, checkedOnce, INSIDE_TEXT, OUTSIDE_MARK } from './fixtures/swap-race.ts';

const root = '/home/user/project';

/**
 * Exchanges `${root}/sub` with `other` at random microtask turns (a fixed
 * seed: the same interleavings on every run) while `calls` run, and counts
 * what came back: calls that reached the other tree, calls that went
 * through, refusals by kind.
 */
async function raceSwaps(fs: MemoryFileSystem, other: string, seed: number, calls: (call: number) => Promise<boolean>, count: number) {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  let running = true;
  let swaps = 0;
  // Every step of the memory host yields a microtask; the swapper takes some of those turns.
  const swapper = (async () => {
    while (running) {
      if (random() < 0.3) {
        fs.moveEntry(`${root}/sub`, `${root}/.parked`);
        fs.moveEntry(other, `${root}/sub`);
        fs.moveEntry(`${root}/.parked`, other);
        swaps += 1;
      }
      await Promise.resolve();
    }
  })();
  const refused: Record<string, number> = {};
  let ok = 0;
  let reached = 0;
  for (let call = 1; call <= count; call += 1) {
    try {
      if (await calls(call)) reached += 1;
      ok += 1;
    } catch (error) {
      if (!isToolError(error)) throw error;
      refused[error.kind] = (refused[error.kind] ?? 0) + 1;
    }
  }
  running = false;
  await swapper;
  return { swaps, ok, refused, reached };
}

async function world(fs = new MemoryFileSystem({ directories: [root] })) {
  return { fs, guard: await PathGuard.create({ workingDirectory: root, probe: fs }) };
}

describe('MemoryFileSystem never touches the host disk', () => {
  it('reads do not fall back to host files, and writes do not reach the host', async () => {
    const host = await realpath(await mkdtemp(join(tmpdir(), 'fs-backend-host-')));
    try {
      await writeFile(join(host, 'real.txt'), 'ON THE HOST');
      const fs = new MemoryFileSystem({ directories: [host] });
      expect(await fs.lstat(join(host, 'real.txt'))).toBeNull();
      const guard = await PathGuard.create({ workingDirectory: host, probe: fs });
      await expectToolError(guard.resolvePath('real.txt', 'read', 'must_exist'), 'not_found');
      fs.seedFile(join(host, 'real.txt'), 'in memory');
      expect(text(await fs.readFile(await guard.resolvePath('real.txt', 'read', 'must_exist'), { maxBytes: 100 }))).toBe('in memory');
      await fs.writeFile(await guard.resolvePath('real.txt', 'write', 'must_exist'), bytes('memory write'));
      await fs.writeFile(await guard.resolvePath('new/made.txt', 'write', 'may_create'), bytes('x'), { createParents: true });
      expect(await readFile(join(host, 'real.txt'), 'utf8')).toBe('ON THE HOST');
      expect(await readdir(host)).toEqual(['real.txt']);
    } finally {
      await rm(host, { recursive: true, force: true });
    }
  });

  it('no module it loads imports node:fs or child_process', async () => {
    const graph = await importGraph(fileURLToPath(new URL('../src/memory/index.ts', import.meta.url)));
    expect(graph.files.size).toBeGreaterThan(5);
    expect(hostModules(graph.specifiers)).toEqual([]);
  });
});

describe('MemoryFileSystem seeding and POSIX semantics', () => {
  it('the constructor seeds files, directories and relative or absolute symlinks', async () => {
    const fs = new MemoryFileSystem({
      directories: [root, `${root}/empty`],
      files: { [`${root}/src/a.txt`]: 'a', '/elsewhere/x.txt': 'x' },
      symlinks: { [`${root}/rel`]: 'src/a.txt', [`${root}/abs`]: `${root}/src` },
    });
    const { guard } = await world(fs);
    expect(text(await fs.readFile(await guard.resolvePath('rel', 'read', 'must_exist'), { maxBytes: 10 }))).toBe('a');
    const listed = await fs.readDirectory(await guard.resolvePath('abs', 'read', 'must_exist'));
    expect(listed).toEqual([{ name: 'a.txt', kind: 'file', size: 1 }]);
    expect(fs.inspectDirectory(`${root}/empty`)).toEqual([]);
  });

  it('a symlink loop is symlink_loop and an over-long name is name_too_long', async () => {
    const fs = new MemoryFileSystem({ directories: [root], symlinks: { [`${root}/loop`]: 'loop' } });
    await expectToolError(fs.lstat(`${root}/loop/below`), 'symlink_loop');
    await expectToolError(fs.lstat(`${root}/${'n'.repeat(256)}`), 'name_too_long');
    expect(await fs.lstat(`${root}/${'n'.repeat(255)}`)).toBeNull();
    // The bound is in bytes of UTF-8: 128 two-byte characters are over it, 127 and one more byte are not.
    await expectToolError(fs.lstat(`${root}/${'é'.repeat(128)}`), 'name_too_long');
    expect(await fs.lstat(`${root}/${'é'.repeat(127)}n`)).toBeNull();
  });

  it('readlink of something that is not a symlink is stale: the guard asks only after lstat said symlink, so it was swapped meanwhile', async () => {
    const fs = new MemoryFileSystem({ directories: [root] });
    await expectToolError(fs.readlink(root), 'stale');
    await expectToolError(fs.readlink(`${root}/missing`), 'not_found');
  });
});

describe('MemoryFileSystem injected faults map like Node errors and leave no temp file', () => {
  it('ENOSPC on the temp write is io "no space left on device"; the file is untouched and no temp entry remains', async () => {
    const { fs, guard } = await world();
    fs.seedFile(`${root}/a.txt`, 'original');
    fs.injectFault(`${root}/a.txt`, 'write', 'ENOSPC');
    const message = await expectToolError(fs.writeFile(await guard.resolvePath('a.txt', 'write', 'must_exist'), bytes('new')), 'io');
    expect(message).toContain('no space left on device');
    expect(text(fs.inspectFile(`${root}/a.txt`) ?? null)).toBe('original');
    expect(fs.inspectDirectory(root)).toEqual(['a.txt']);
  });

  it('a full disk under a directory fails every write in it; clearFaults lets it through', async () => {
    const { fs, guard } = await world();
    fs.injectFault(root, 'write', 'EDQUOT');
    const path = await guard.resolvePath('b.txt', 'write', 'may_create');
    await expectToolError(fs.writeFile(path, bytes('x')), 'io');
    expect(fs.inspectDirectory(root)).toEqual([]);
    fs.clearFaults();
    expect(await fs.writeFile(path, bytes('x'))).toEqual({ created: true, bytes: 1 });
  });

  it('EIO on the rename is io; no temp entry remains and the old content stays', async () => {
    const { fs, guard } = await world();
    fs.seedFile(`${root}/a.txt`, 'original');
    fs.injectFault(`${root}/a.txt`, 'rename', 'EIO');
    const message = await expectToolError(fs.writeFile(await guard.resolvePath('a.txt', 'write', 'must_exist'), bytes('new')), 'io');
    expect(message).toContain('EIO');
    expect(fs.inspectDirectory(root)).toEqual(['a.txt']);
    expect(text(fs.inspectFile(`${root}/a.txt`) ?? null)).toBe('original');
  });

  it('EACCES on read is permission_denied; EROFS on write is permission_denied', async () => {
    const { fs, guard } = await world();
    fs.seedFile(`${root}/a.txt`, 'x');
    fs.injectFault(`${root}/a.txt`, 'read', 'EACCES');
    await expectToolError(fs.readFile(await guard.resolvePath('a.txt', 'read', 'must_exist'), { maxBytes: 10 }), 'permission_denied');
    fs.injectFault(`${root}/a.txt`, 'open', 'EROFS');
    await expectToolError(fs.writeFile(await guard.resolvePath('a.txt', 'write', 'must_exist'), bytes('y')), 'permission_denied');
    expect(fs.inspectDirectory(root)).toEqual(['a.txt']);
  });

  it('EACCES on making a parent is permission_denied and stops at that level', async () => {
    const { fs, guard } = await world();
    fs.injectFault(`${root}/a/b`, 'mkdir', 'EACCES');
    const path = await guard.resolvePath('a/b/c/file.txt', 'write', 'may_create');
    await expectToolError(fs.writeFile(path, bytes('x'), { createParents: true }), 'permission_denied');
    expect(fs.inspectDirectory(`${root}/a`)).toEqual([]);
  });

  it('EIO on unlink makes removeFile io and keeps the file', async () => {
    const { fs, guard } = await world();
    fs.seedFile(`${root}/a.txt`, 'x');
    fs.injectFault(`${root}/a.txt`, 'unlink', 'EIO');
    const expectedSha256 = createHash('sha256').update('x').digest('hex');
    await expectToolError(fs.removeFile(await guard.resolvePath('a.txt', 'write', 'must_exist'), { expectedSha256 }), 'io');
    expect(fs.inspectDirectory(root)).toEqual(['a.txt']);
  });
});

describe('MemoryFileSystem directory handles hold the directory, as descriptors do (docs/decisions/0009)', () => {
  it('root/sub swapped with a symlink to outside at random points during 1500 calls: nothing outside is read, written or listed', async () => {
    const fs = new MemoryFileSystem({
      directories: [root],
      files: { [`${root}/sub/file.txt`]: INSIDE_TEXT, '/outside/file.txt': `${OUTSIDE_MARK}\n`, '/outside/outside-only.txt': OUTSIDE_MARK },
      symlinks: { [`${root}/.swap-link`]: '/outside' },
    });
    const guard = await PathGuard.create({ workingDirectory: root, probe: fs });
    const operations = ['read', 'write', 'edit', 'list', 'search'] as const;
    const { swaps, ok, refused, reached: outsideReads } = await raceSwaps(fs, `${root}/.swap-link`, 19, (call) => callOnce(operations[(call - 1) % operations.length] as (typeof operations)[number], fs, guard, call - 1), 1500);
    const report = JSON.stringify({ swaps, ok, refused, outsideReads });
    expect(outsideReads, report).toBe(0);
    expect(fs.inspectDirectory('/outside'), report).toEqual(['file.txt', 'outside-only.txt']);
    expect(text(fs.inspectFile('/outside/file.txt') ?? null), report).toBe(`${OUTSIDE_MARK}\n`);
    const real = fs.inspectDirectory(`${root}/sub`)?.includes('outside-only.txt') === true ? `${root}/.swap-link` : `${root}/sub`;
    expect(fs.inspectDirectory(real)?.filter((name) => name.endsWith('.tmp')), report).toEqual([]);
    expect(ok, report).toBeGreaterThan(100);
    expect(Object.keys(refused).filter((kind) => !['stale', 'outside_root', 'not_found'].includes(kind)), report).toEqual([]);
    expect((refused.stale ?? 0) + (refused.outside_root ?? 0), report).toBeGreaterThan(100);
  });

  it('root/sub swapped with another real directory at random points during 1000 calls through CheckedPaths made before: the stranger is never read, written, listed or searched', async () => {
    const stranger = `${root}/.swap-stranger`;
    const fs = new MemoryFileSystem({
      directories: [root],
      files: { [`${root}/sub/file.txt`]: INSIDE_TEXT, [`${stranger}/file.txt`]: `${OUTSIDE_MARK}\n`, [`${stranger}/outside-only.txt`]: OUTSIDE_MARK },
    });
    const guard = await PathGuard.create({ workingDirectory: root, probe: fs });
    // The tree search waits for macrotasks, which a swapper taking every microtask turn would starve: its walk is the same one (the contract's swap tests).
    const operations = ['read', 'write', 'list', 'search'] as const;
    // Each CheckedPath is made by a first call while sub is the real directory; only the walk's identity check tells the stranger apart.
    const options = { resolve: checkedOnce(guard) };
    for (const operation of operations) expect(await callOnce(operation, fs, guard, 0, options)).toBe(false);
    const { swaps, ok, refused, reached: strangerReads } = await raceSwaps(fs, stranger, 23, (call) => callOnce(operations[call % operations.length] as (typeof operations)[number], fs, guard, call, options), 1000);
    const report = JSON.stringify({ swaps, ok, refused, strangerReads });
    expect(strangerReads, report).toBe(0);
    const strangerNow = fs.inspectDirectory(`${root}/sub`)?.includes('outside-only.txt') === true ? `${root}/sub` : stranger;
    expect(fs.inspectDirectory(strangerNow), report).toEqual(['file.txt', 'outside-only.txt']);
    expect(text(fs.inspectFile(`${strangerNow}/file.txt`) ?? null), report).toBe(`${OUTSIDE_MARK}\n`);
    expect(ok, report).toBeGreaterThan(100);
    expect(Object.keys(refused).filter((kind) => !['stale', 'not_found'].includes(kind)), report).toEqual([]);
    expect(refused.stale ?? 0, report).toBeGreaterThan(100);
  });
});
