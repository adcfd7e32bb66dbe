import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { adaptTool, TurnScope, type FileChangeArtifact } from '@openwork/tool-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { undoChanges, writeTool, type BuiltinSession, type ChangeJournal } from '../src/index.ts';
import { createHarness, errorKind, type Harness } from './harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.cleanup());

const file = (name: string) => join(h.ws, name);
const content = (name: string) => readFile(file(name), 'utf8').catch(() => null);
const signal = () => new AbortController().signal;

interface Recorded {
  readonly event: 'begin' | 'complete' | 'abandon';
  readonly change: FileChangeArtifact;
  /** The file's content when the journal was called. */
  readonly onDisk: string | null;
}

/** A journal that records what it is told and what the file held at that moment; `fail` makes one step throw. */
function recordingJournal(options: { fail?: 'begin' | 'complete'; duringBegin?: (change: FileChangeArtifact) => Promise<void> } = {}) {
  const events: Recorded[] = [];
  const note = async (event: Recorded['event'], change: FileChangeArtifact) => {
    events.push({ event, change, onDisk: await readFile(change.absolutePath, 'utf8').catch(() => null) });
    if (options.fail === event) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  };
  const journal: ChangeJournal = {
    begin: async (change) => {
      await note('begin', change);
      await options.duringBegin?.(change);
    },
    complete: (change) => note('complete', change),
    abandon: (change) => note('abandon', change),
  };
  return { journal, events };
}

function withJournal(journal: ChangeJournal): void {
  (h.session as { changeJournal?: ChangeJournal }).changeJournal = journal;
}

const calls: [string, (name: string) => Record<string, unknown>, string | null, string][] = [
  ['write over a file', (name) => ({ path: name, content: 'new\n' }), 'old\n', 'new\n'],
  ['write a new file', (name) => ({ path: name, content: 'new\n' }), null, 'new\n'],
  ['edit a file', (name) => ({ path: name, oldText: 'old', newText: 'new' }), 'old\n', 'new\n'],
  ['edit creating a file', (name) => ({ path: name, oldText: '', newText: 'new\n' }), null, 'new\n'],
];
const toolOf = (input: Record<string, unknown>) => ('oldText' in input ? 'edit' : 'write');

describe('the change journal (docs/decisions/0002-undo-promises.md)', () => {
  it.each(calls)('%s: the change with its original is recorded before the file changes, and completed after', async (_label, input, before, after) => {
    if (before !== null) await writeFile(file('f.txt'), before);
    const { journal, events } = recordingJournal();
    withJournal(journal);
    const result = await h.call(toolOf(input('f.txt')), input('f.txt'));
    expect(result.status).toBe('ok');
    expect(events.map((event) => [event.event, event.onDisk])).toEqual([
      ['begin', before],
      ['complete', after],
    ]);
    expect(events[0]?.change).toEqual(result.artifacts[0]);
    expect(events[0]?.change.originalContent).toBe(before);
  });

  it.each(calls)('%s: a failed record leaves the file untouched and ends in one io result', async (_label, input, before) => {
    if (before !== null) await writeFile(file('f.txt'), before);
    const { journal, events } = recordingJournal({ fail: 'begin' });
    withJournal(journal);
    const result = await h.call(toolOf(input('f.txt')), input('f.txt'));
    expect(errorKind(result)).toBe('io');
    expect(result.output).toMatch(/f\.txt was left unchanged: the undo journal could not record the change .*ENOSPC/);
    expect(result.artifacts).toEqual([]);
    expect(await content('f.txt')).toBe(before);
    expect(events.map((event) => event.event)).toEqual(['begin']);
    expect((await readdir(h.ws)).filter((name) => name !== 'f.txt')).toEqual([]);
  });

  it.each(calls)('%s: a failed completion leaves the new file, its record from before, and one io result', async (_label, input, before, after) => {
    if (before !== null) await writeFile(file('f.txt'), before);
    const { journal, events } = recordingJournal({ fail: 'complete' });
    withJournal(journal);
    const result = await h.call(toolOf(input('f.txt')), input('f.txt'));
    expect(errorKind(result)).toBe('io');
    expect(result.output).toMatch(/f\.txt was changed, but the undo journal could not mark the change complete .*do not repeat/);
    expect(await content('f.txt')).toBe(after);
    const [begun] = events;
    if (begun === undefined) throw new Error('no record');
    // The record written ahead undoes the change: it is unconfirmed and the file has its afterSha256.
    const report = await undoChanges(h.session, [begun.change], { signal: signal(), unconfirmed: new Set([begun.change.changeId]) });
    expect(report).toEqual({ undone: [begun.change.changeId], conflicts: [], skipped: [], reasons: {} });
    expect(await content('f.txt')).toBe(before);
  });

  it('a commit that fails after the record is abandoned; undo skips the record as never made', async () => {
    await writeFile(file('f.txt'), 'old\n');
    // Someone changes the file between the record and the commit: the backend refuses the commit as stale.
    const { journal, events } = recordingJournal({ duringBegin: () => writeFile(file('f.txt'), 'theirs\n') });
    withJournal(journal);
    const result = await h.call('write', { path: 'f.txt', content: 'new\n' });
    expect(errorKind(result)).toBe('stale');
    expect(events.map((event) => event.event)).toEqual(['begin', 'abandon']);
    expect(await content('f.txt')).toBe('theirs\n');
    await writeFile(file('f.txt'), 'old\n');
    const [begun] = events;
    if (begun === undefined) throw new Error('no record');
    const report = await undoChanges(h.session, [begun.change], { signal: signal(), unconfirmed: new Set([begun.change.changeId]) });
    expect(report).toEqual({ undone: [], conflicts: [], skipped: [begun.change.changeId], reasons: {} });
    expect(await content('f.txt')).toBe('old\n');
  });

  it('an unconfirmed change whose file has neither digest is a conflict that says why', async () => {
    await writeFile(file('f.txt'), 'old\n');
    const { journal, events } = recordingJournal({ fail: 'begin' });
    withJournal(journal);
    await h.call('write', { path: 'f.txt', content: 'new\n' });
    await writeFile(file('f.txt'), 'elsewhere\n');
    const [begun] = events;
    if (begun === undefined) throw new Error('no record');
    const report = await undoChanges(h.session, [begun.change], { signal: signal(), unconfirmed: new Set([begun.change.changeId]) });
    expect(report.conflicts).toEqual([{ changeId: begun.change.changeId, path: 'f.txt', reason: expect.stringMatching(/may never have been made/) as unknown }]);
    expect(await content('f.txt')).toBe('elsewhere\n');
  });

  it('a cancel while the journal waits is the call being cancelled, and nothing changes', async () => {
    await writeFile(file('f.txt'), 'old\n');
    const controller = new AbortController();
    const journal: ChangeJournal = {
      begin: (_change, options) =>
        new Promise((_resolve, reject) => {
          options.signal.addEventListener('abort', () => reject(new Error('gave up waiting for the journal lock')), { once: true });
          controller.abort();
        }),
      complete: () => Promise.resolve(),
      abandon: () => Promise.resolve(),
    };
    withJournal(journal);
    const session: BuiltinSession = h.session;
    const turn = new TurnScope(controller.signal);
    const active = turn.startCall({ callId: 'cancel' });
    const prepared = adaptTool(writeTool).prepare(session, { path: 'f.txt', content: 'new\n' }, 'cancel');
    if (!('run' in prepared)) throw new Error('not prepared');
    const result = await prepared.run(active.context);
    active.end();
    expect(errorKind(result)).toBe('cancelled');
    expect(await content('f.txt')).toBe('old\n');
  });
});

describe('a path in the form of a directory', () => {
  it.each(['newdir/', 'newdir/.', 'sub/newdir/'])('write and edit refuse %j with invalid_input and create nothing', async (path) => {
    const write = await h.call('write', { path, content: 'x' });
    expect(errorKind(write)).toBe('invalid_input');
    expect(write.output).toContain('names a directory, not a file');
    expect(errorKind(await h.call('edit', { path, oldText: '', newText: 'x' }))).toBe('invalid_input');
    expect(await readdir(h.ws)).toEqual([]);
  });
});
