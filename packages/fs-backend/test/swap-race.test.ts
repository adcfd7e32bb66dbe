import { PathGuard } from '@openwork/path-guard';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../src/node/index.ts';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { callOnce, checkedOnce, hasPython, makeRaceWorld, OUTSIDE_MARK, outsideSnapshot, race, startSwapper, tempFilesIn, type RaceOperation, type RaceWorld } from './fixtures/swap-race.ts';

// docs/decisions/0009: a child process exchanges root/sub
// (a real directory) with a symlink to an outside directory, hundreds of
// thousands of times a second, while this process calls the file system
// through the path guard. With directory handles, no call may read an outside
// byte, write or create anything outside, or leave a temp file anywhere. The
// tree search walks in the workers, which hand directories to one
// another: no path or line from outside may come back.

// One second is hundreds of thousands of swaps: the calls meet the swap in
// every state many times over (checked by removing the identity checks).
const SECONDS = 1;

const handles = new NodeFileSystem().directoryHandles.mode === 'handles';

describe.skipIf(!handles || !hasPython())('the swap race against directory handles (Linux /proc/self/fd)', () => {
  let world: RaceWorld;
  let fs: NodeFileSystem;

  beforeEach(async () => {
    world = await makeRaceWorld();
    fs = new NodeFileSystem();
  });

  afterEach(async () => {
    await fs.close();
    await world.cleanup();
  });

  const operations: RaceOperation[] = ['read', 'write', 'edit', 'list', 'search', 'tree-search'];
  it.each(operations)('%s: zero outside bytes read or written, no temp file left anywhere', { timeout: 30_000 }, async (operation) => {
    const guard = await PathGuard.create({ workingDirectory: world.root, probe: fs });
    const before = await outsideSnapshot(world.outside);
    const swapper = await startSwapper(world, SECONDS);
    // The child is stopped even when a call throws something that is not a ToolError.
    const tally = await race(operation, fs, guard, SECONDS).finally(() => swapper.stop());
    const { swaps } = await swapper.stop();
    const report = JSON.stringify({ swaps, method: swapper.method, ...tally });
    expect(tally.outsideReads, report).toBe(0);
    expect(await outsideSnapshot(world.outside), report).toBe(before);
    expect(await tempFilesIn(world.outside), report).toEqual([]);
    expect(await tempFilesIn(world.swapped), report).toEqual([]);
    expect(await tempFilesIn(world.root), report).toEqual([]);
    // The race was real: the swaps interleaved with the calls, which both went through and were refused.
    expect(swaps, report).toBeGreaterThan(1000);
    expect(tally.ok, report).toBeGreaterThan(0);
    const refusedKinds = Object.keys(tally.refused);
    // A tree search does not fail on a swapped directory: it counts it unreadable, or resolves the symlink through the guard and leaves it out.
    if (operation !== 'tree-search') expect(refusedKinds.length, report).toBeGreaterThan(0);
    // A swap is `stale` (seen by the backend) or `outside_root` (seen by the guard); never an I/O error or a wrong kind.
    expect(refusedKinds.filter((kind) => !['stale', 'outside_root', 'not_found'].includes(kind)), report).toEqual([]);
  });
});

// The same race with another real directory in the root swapped in for
// root/sub: O_NOFOLLOW does not refuse it, only the last mile's identity
// check does (the one walk in tree-search, docs/decisions/0009). Every
// CheckedPath is made before the swaps begin, as a long call holds one; the
// stranger's files must never be read, listed, searched or written through it.
describe.skipIf(!handles || !hasPython())('the swap race with another real directory (Linux /proc/self/fd)', () => {
  let world: RaceWorld;
  let fs: NodeFileSystem;

  beforeEach(async () => {
    world = await makeRaceWorld({ stranger: 'directory' });
    fs = new NodeFileSystem();
  });

  afterEach(async () => {
    await fs.close();
    await world.cleanup();
  });

  const operations: RaceOperation[] = ['read', 'write', 'list', 'search', 'tree-search'];
  it.each(operations)('%s through a CheckedPath made before the swap: the stranger is never reached', { timeout: 30_000 }, async (operation) => {
    const guard = await PathGuard.create({ workingDirectory: world.root, probe: fs });
    const resolve = checkedOnce(guard);
    const options = { resolve, searchFrom: 'sub' } as const;
    // One call before the swapping starts makes each CheckedPath the call uses, while root/sub is the real directory.
    expect(await callOnce(operation, fs, guard, 0, options)).toBe(false);
    const swapper = await startSwapper(world, 1);
    const tally = await race(operation, fs, guard, 1, options).finally(() => swapper.stop());
    const { swaps } = await swapper.stop();
    const report = JSON.stringify({ swaps, method: swapper.method, ...tally });
    expect(tally.outsideReads, report).toBe(0);
    // The child leaves root/sub the real directory again, and the stranger at its own name, as it found it.
    expect((await readdir(world.outside)).sort(), report).toEqual(['file.txt', 'outside-only.txt']);
    expect(await readFile(join(world.outside, 'file.txt'), 'utf8'), report).toBe(`${OUTSIDE_MARK}\n`);
    expect(await tempFilesIn(world.swapped), report).toEqual([]);
    expect(swaps, report).toBeGreaterThan(1000);
    expect(tally.ok, report).toBeGreaterThan(0);
    // Refused as changed; never an I/O error or a wrong kind (not_found only while three renames stand in for an atomic exchange).
    expect(tally.refused.stale ?? 0, report).toBeGreaterThan(0);
    expect(Object.keys(tally.refused).filter((kind) => !['stale', 'not_found'].includes(kind)), report).toEqual([]);
  });
});
