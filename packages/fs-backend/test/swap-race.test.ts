import { PathGuard } from '@openwork/path-guard';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../src/node/index.ts';
import { hasPython, makeRaceWorld, outsideSnapshot, race, startSwapper, tempFilesIn, type RaceOperation, type RaceWorld } from './fixtures/swap-race.ts';

// docs/decisions/0009: a child process exchanges root/sub
// (a real directory) with a symlink to an outside directory, hundreds of
// thousands of times a second, while this process calls the file system
// through the path guard. With directory handles, no call may read an outside
// byte, write or create anything outside, or leave a temp file anywhere. The
// tree search walks in the workers, which hand directories to one
// another: no path or line from outside may come back.

const SECONDS = 2;


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
