import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileChangeArtifact } from '@openwork/tool-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChangeQueue, undoChanges } from '../src/index.ts';
import { createHarness, errorKind, type Harness } from './harness.ts';
import { callTool } from './search-world.ts';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.cleanup());

describe('undo runs in series with the session\'s new changes (docs/design.md §10)', () => {
  it('an undo and an edit of the same file called together land in call order, every time, and never clobber', async () => {
    const session = { ...h.session, changeQueue: new ChangeQueue() };
    const path = join(h.ws, 'a.txt');
    for (let round = 0; round < 20; round += 1) {
      await writeFile(path, 'A\n');
      session.readLedger.forget(path);
      const first = await callTool(session, 'edit', { path: 'a.txt', oldText: 'A', newText: 'B' });
      expect(first.status).toBe('ok');
      const artifacts = [...first.artifacts] as FileChangeArtifact[];
      const signal = new AbortController().signal;
      if (round % 2 === 0) {
        // Undo first: the file is back to A, which the model has not read, so the edit of B is stale.
        const [report, edit] = await Promise.all([undoChanges(session, artifacts, { signal }), callTool(session, 'edit', { path: 'a.txt', oldText: 'B', newText: 'C' })]);
        expect(report.undone).toHaveLength(1);
        expect(errorKind(edit)).toBe('stale');
        expect(await readFile(path, 'utf8')).toBe('A\n');
      } else {
        // The edit first: the file moved on, so undo refuses rather than overwrite it.
        const [edit, report] = await Promise.all([callTool(session, 'edit', { path: 'a.txt', oldText: 'B', newText: 'C' }), undoChanges(session, artifacts, { signal })]);
        expect(edit.status).toBe('ok');
        expect(report.conflicts).toHaveLength(1);
        expect(await readFile(path, 'utf8')).toBe('C\n');
      }
    }
  });

  it('an undo and a write of the same file called together land in call order, every time', async () => {
    const session = { ...h.session, changeQueue: new ChangeQueue() };
    const path = join(h.ws, 'a.txt');
    for (let round = 0; round < 20; round += 1) {
      await writeFile(path, 'A\n');
      const first = await callTool(session, 'write', { path: 'a.txt', content: 'B\n' });
      expect(first.status).toBe('ok');
      const artifacts = [...first.artifacts] as FileChangeArtifact[];
      const signal = new AbortController().signal;
      if (round % 2 === 0) {
        // Undo first: back to A, then the write replaces it with C.
        const [report, write] = await Promise.all([undoChanges(session, artifacts, { signal }), callTool(session, 'write', { path: 'a.txt', content: 'C\n' })]);
        expect(report.undone).toHaveLength(1);
        expect(write.status).toBe('ok');
      } else {
        // The write first: the file moved on to C, so undo refuses rather than put A back.
        const [write, report] = await Promise.all([callTool(session, 'write', { path: 'a.txt', content: 'C\n' }), undoChanges(session, artifacts, { signal })]);
        expect(write.status).toBe('ok');
        expect(report.conflicts).toHaveLength(1);
      }
      expect(await readFile(path, 'utf8')).toBe('C\n');
    }
  });

  it('a call cancelled while it waits in line ends as cancelled and does not hold the line', async () => {
    const queue = new ChangeQueue();
    let releaseFirst!: () => void;
    const first = queue.run(() => new Promise<string>((resolve) => (releaseFirst = () => resolve('first'))));
    const controller = new AbortController();
    const waiting = queue.run(() => Promise.resolve('never'), controller.signal);
    const third = queue.run(() => Promise.resolve('third'));
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ kind: 'cancelled' });
    releaseFirst();
    expect(await first).toBe('first');
    expect(await third).toBe('third');
  });
});
