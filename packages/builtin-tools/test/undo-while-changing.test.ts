import { ToolError, type FileChangeArtifact } from '@openwork/tool-contract';
import type { AsyncFileSystem } from '@openwork/fs-backend';
import { describe, expect, it } from 'vitest';
import { undoChanges } from '../src/index.ts';
import { callTool, memoryWorld } from './search-world.ts';

/** The file system, with every read failing as `kind` once `armed` says so: another process changing or removing the file while undo checks it. */
function failingReads(filesystem: AsyncFileSystem, kind: 'stale' | 'not_found', armed: () => boolean): AsyncFileSystem {
  return new Proxy(filesystem, {
    get(target, key) {
      if (key === 'readFile') {
        return (...args: Parameters<AsyncFileSystem['readFile']>) => {
          if (armed()) return Promise.reject(new ToolError(kind, kind === 'stale' ? 'the file changed while it was being read' : 'the file is gone'));
          return target.readFile(...args);
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('undo while another process changes the file', () => {
  for (const kind of ['stale', 'not_found'] as const) {
    it(`a file ${kind === 'stale' ? 'changing while undo reads it' : 'removed before undo reads it'} is a conflict in the report, not a failure of undo`, async () => {
      const world = await memoryWorld();
      let armed = false;
      const session = await world.session({ wrap: (filesystem) => failingReads(filesystem, kind, () => armed) });
      await world.file('u.txt', 'v1\n');
      const edited = await callTool(session, 'edit', { path: 'u.txt', oldText: 'v1', newText: 'v2' });
      const changes = edited.artifacts as FileChangeArtifact[];
      expect(changes).toHaveLength(1);
      armed = true;
      const report = await undoChanges(session, changes, { signal: new AbortController().signal });
      armed = false;
      expect(report.undone).toEqual([]);
      expect(report.conflicts.map((conflict) => conflict.changeId)).toEqual([changes[0]?.changeId]);
      expect(((await callTool(session, 'read', { path: 'u.txt' })).data as { content: string }).content).toBe('v2\n');
    });
  }
});
