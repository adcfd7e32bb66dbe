import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AsyncFileSystem } from '@openwork/fs-backend';
import { describe, expect, it } from 'vitest';
import { callTool, memoryWorld, nodeWorld } from './search-world.ts';

/** The same file system, with `change` run right before each commit: an external change landing between edit's read and its write. */
function changeBeforeCommit(filesystem: AsyncFileSystem, change: () => void): AsyncFileSystem {
  return new Proxy(filesystem, {
    get(target, key) {
      if (key === 'writeFile') {
        return (...args: Parameters<AsyncFileSystem['writeFile']>) => {
          change();
          return target.writeFile(...args);
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('edit re-checks the digest right before it commits (docs/design.md §9)', () => {
  it('memory file system: a change that lands between the read and the commit is stale, and survives', async () => {
    const world = await memoryWorld();
    let changed = false;
    const session = await world.session({
      wrap: (filesystem) =>
        changeBeforeCommit(filesystem, () => {
          // The memory file system of this world is the one being wrapped.
          (filesystem as unknown as { seedFile(path: string, content: string): void }).seedFile(join(world.ws, 'a.txt'), 'theirs marker\n');
          changed = true;
        }),
    });
    await world.file('a.txt', 'mine marker\n');
    const result = await callTool(session, 'edit', { path: 'a.txt', oldText: 'mine', newText: 'edited' });
    expect(changed).toBe(true);
    expect(result.status === 'error' && result.error.kind).toBe('stale');
    expect(((await callTool(session, 'read', { path: 'a.txt' })).data as { content: string }).content).toBe('theirs marker\n');
  });

  it('real file system: a file rewritten by a child process between the read and the commit is stale, and survives, every time', async () => {
    const world = await nodeWorld();
    try {
      const path = join(world.ws, 'a.txt');
      let round = 0;
      const session = await world.session({
        wrap: (filesystem) => changeBeforeCommit(filesystem, () => execFileSync('sh', ['-c', `printf 'theirs %s marker\\n' ${round} > ${path}`])),
      });
      for (; round < 20; round += 1) {
        writeFileSync(path, `mine ${round} marker\n`);
        const result = await callTool(session, 'edit', { path: 'a.txt', oldText: `mine ${round}`, newText: 'edited' });
        expect(result.status === 'error' && result.error.kind).toBe('stale');
        expect(readFileSync(path, 'utf8')).toBe(`theirs ${round} marker\n`);
      }
    } finally {
      await world.cleanup();
    }
  });

});
