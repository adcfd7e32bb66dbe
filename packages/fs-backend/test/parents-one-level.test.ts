import { PathGuard } from '@openwork/path-guard';
import { isToolError } from '@openwork/tool-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bytes } from '../src/contract-suite/contract-helpers.ts';
import { MemoryFileSystem } from '../src/memory/index.ts';
import { NodeFileSystem } from '../src/node/index.ts';
import { hasPython, makeRaceWorld, outsideSnapshot, startSwapper, type RaceWorld } from './fixtures/swap-race.ts';

// docs/design.md §9 write: parents are made one level at a time, each
// opened from the one above without following a symlink before the next is
// made; never created recursively (by path) and checked once at the end.

const root = '/home/user/project';

describe('createParents on the memory fs: a level swapped for a symlink to outside right after it is made', () => {
  for (const level of ['a', 'a/b']) {
    it(`${level} swapped: the write is stale or lands inside, and nothing is created outside`, async () => {
      const fs = new MemoryFileSystem({ directories: [root, '/outside'] });
      const guard = await PathGuard.create({ workingDirectory: root, probe: fs });
      const path = await guard.resolvePath('a/b/c/file.txt', 'write', 'may_create');
      let running = true;
      let swapped = false;
      // Every step of the memory host yields a microtask: the watcher swaps the level the moment it exists.
      const watcher = (async () => {
        while (running && !swapped) {
          if (fs.inspectMode(`${root}/${level}`) !== undefined && fs.inspectDirectory(`${root}/${level}`) !== undefined) {
            fs.moveEntry(`${root}/${level}`, `${root}/.parked`);
            fs.seedSymlink(`${root}/${level}`, '/outside');
            swapped = true;
          }
          await Promise.resolve();
        }
      })();
      let outcome = 'ok';
      try {
        await fs.writeFile(path, bytes('mine'), { createParents: true });
      } catch (error) {
        if (!isToolError(error)) throw error;
        outcome = error.kind;
      } finally {
        running = false;
        await watcher;
      }
      expect(swapped).toBe(true);
      expect(['ok', 'stale']).toContain(outcome);
      expect(fs.inspectDirectory('/outside')).toEqual([]);
    });
  }
});


describe.skipIf(!hasPython())('createParents on the real fs while a child process swaps the existing parent with a symlink to outside', () => {
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

  it('sub/nN/deeper/file.txt written in a loop: nothing is created outside', { timeout: 30_000 }, async () => {
    const guard = await PathGuard.create({ workingDirectory: world.root, probe: fs });
    const before = await outsideSnapshot(world.outside);
    const swapper = await startSwapper(world, 2);
    const refused: Record<string, number> = {};
    let calls = 0;
    let ok = 0;
    try {
      const end = Date.now() + 2000;
      while (Date.now() < end) {
        calls += 1;
        try {
          const path = await guard.resolvePath(`sub/n${calls}/deeper/file.txt`, 'write', 'may_create');
          await fs.writeFile(path, bytes('mine'), { createParents: true });
          ok += 1;
        } catch (error) {
          if (!isToolError(error)) throw error;
          refused[error.kind] = (refused[error.kind] ?? 0) + 1;
        }
      }
    } finally {
      await swapper.stop();
    }
    const report = JSON.stringify({ calls, ok, refused });
    expect(await outsideSnapshot(world.outside), report).toBe(before);
    expect(ok, report).toBeGreaterThan(0);
    expect(Object.keys(refused).filter((kind) => !['stale', 'outside_root', 'not_found'].includes(kind)), report).toEqual([]);
  });
});
