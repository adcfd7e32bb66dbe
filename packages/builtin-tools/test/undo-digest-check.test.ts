import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileChangeArtifact } from '@openwork/tool-contract';
import type { AsyncFileSystem } from '@openwork/fs-backend';
import { afterEach, describe, expect, it } from 'vitest';
import { undoChanges } from '../src/index.ts';
import { callTool, nodeWorld, type SearchWorld } from './search-world.ts';

/** The file system, counting the writes and removals undo attempts: refusing on the digest means it never tries one. */
function countingChanges(filesystem: AsyncFileSystem, counts: { changes: number }): AsyncFileSystem {
  return new Proxy(filesystem, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (key !== 'writeFile' && key !== 'removeFile') return method;
      return (...args: unknown[]) => {
        counts.changes += 1;
        return method(...args);
      };
    },
  });
}

let world: SearchWorld | undefined;
afterEach(async () => {
  await world?.cleanup();
  world = undefined;
});

const cases = [
  { name: 'an edited file changed since', setUp: { path: 'e.txt', before: 'v1\n' }, call: { oldText: 'v1', newText: 'v2' }, after: 'external\n', reason: /changed after this change/ },
  { name: 'a created file changed since', setUp: undefined, call: { oldText: '', newText: 'made\n' }, after: 'made, then changed\n', reason: /changed after this change/ },
  { name: 'an edited file removed since', setUp: { path: 'e.txt', before: 'v1\n' }, call: { oldText: 'v1', newText: 'v2' }, after: null, reason: /no longer exists/ },
] as const;

describe('undo compares the file with the digest after the change before it touches it (docs/security.md)', () => {
  for (const example of cases) {
    it(`${example.name}: a conflict that says why, with no write or removal attempted and the file as it is`, async () => {
      world = await nodeWorld();
      const counts = { changes: 0 };
      const session = await world.session({ wrap: (filesystem) => countingChanges(filesystem, counts) });
      const path = join(world.ws, 'e.txt');
      if (example.setUp !== undefined) await writeFile(path, example.setUp.before);
      const result = await callTool(session, 'edit', { path: 'e.txt', ...example.call });
      const changes = result.artifacts as FileChangeArtifact[];
      expect(changes).toHaveLength(1);
      if (example.after === null) await rm(path);
      else await writeFile(path, example.after);
      counts.changes = 0;
      const report = await undoChanges(session, changes, { signal: new AbortController().signal });
      expect(report.undone).toEqual([]);
      expect(report.conflicts).toHaveLength(1);
      expect(report.conflicts[0]?.reason).toMatch(example.reason);
      expect(counts.changes).toBe(0);
      if (example.after === null) await expect(readFile(path)).rejects.toThrow();
      else expect(await readFile(path, 'utf8')).toBe(example.after);
    });
  }

  it('the file as the change left it is restored: the check lets the matching digest through', async () => {
    world = await nodeWorld();
    const counts = { changes: 0 };
    const session = await world.session({ wrap: (filesystem) => countingChanges(filesystem, counts) });
    await writeFile(join(world.ws, 'e.txt'), 'v1\n');
    const changes = (await callTool(session, 'edit', { path: 'e.txt', oldText: 'v1', newText: 'v2' })).artifacts as FileChangeArtifact[];
    counts.changes = 0;
    const report = await undoChanges(session, changes, { signal: new AbortController().signal });
    expect(report).toEqual({ undone: [changes[0]?.changeId], conflicts: [], skipped: [], reasons: {} });
    expect(counts.changes).toBe(1);
    expect(await readFile(join(world.ws, 'e.txt'), 'utf8')).toBe('v1\n');
  });

  it('a file changed between the check and the restore is a conflict too, and the other change survives', async () => {
    world = await nodeWorld();
    const path = join(world.ws, 'e.txt');
    let armed = false;
    const session = await world.session({
      wrap: (filesystem) =>
        new Proxy(filesystem, {
          get(target, key) {
            const value: unknown = Reflect.get(target, key, target);
            if (typeof value !== 'function') return value;
            const method = (value as (...args: unknown[]) => Promise<unknown>).bind(target);
            if (key !== 'writeFile') return method;
            // Another process writes right after undo compared the digest and before its write commits.
            return async (...args: unknown[]) => {
              if (armed) await writeFile(path, 'theirs\n');
              return method(...args);
            };
          },
        }),
    });
    await writeFile(path, 'v1\n');
    const changes = (await callTool(session, 'edit', { path: 'e.txt', oldText: 'v1', newText: 'v2' })).artifacts as FileChangeArtifact[];
    armed = true;
    const report = await undoChanges(session, changes, { signal: new AbortController().signal });
    expect(report.undone).toEqual([]);
    expect(report.conflicts.map((conflict) => conflict.reason)).toEqual(['the file changed while it was being restored; it was left as it is']);
    expect(await readFile(path, 'utf8')).toBe('theirs\n');
  });
});
