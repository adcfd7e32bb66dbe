import { mkdir, mkdtemp, readFile, readdir, realpath, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { askNobody, authorizer, sessionPolicy } from '@openwork/permission-policy';
import { TurnScope, type ToolResult } from '@openwork/tool-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseArgs } from '../src/args.ts';
import { createArtifactJournal, withArtifactJournal, type JournalOptions, type JournalStep } from '../src/journal.ts';
import { runCli } from '../src/main.ts';
import { createSession } from '../src/session.ts';
import { finalizeFor } from '../src/toolset.ts';

let base: string;
let ws: string;
let journal: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'journal-')));
  ws = join(base, 'ws');
  journal = join(base, 'changes.jsonl');
  await mkdir(ws);
});
afterEach(() => rm(base, { recursive: true, force: true }));

const content = (name: string) => readFile(join(ws, name), 'utf8').catch(() => null);
const journalText = () => readFile(journal, 'utf8').catch(() => '');
const journalLines = async () => (await journalText()).split('\n').filter((line) => line !== '');
const parsedLines = async () => (await journalLines()).map((line) => JSON.parse(line) as { kind: string; changeId: string; pending?: boolean; undone?: boolean });

/** A full disk in the journal writer: the given step writes half its line, then fails with ENOSPC. */
function failing(step: JournalStep): JournalOptions {
  return {
    write: async (handle: FileHandle, text: string, current: JournalStep) => {
      if (current !== step) return void (await handle.appendFile(text));
      await handle.appendFile(text.slice(0, Math.floor(text.length / 2)));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    },
  };
}

/** One call through the command's own session and toolset, with the journal writer under test. */
async function call(name: string, input: object, options: JournalOptions = {}): Promise<ToolResult> {
  const cli = parseArgs(['call', name, '--cwd', ws, '--mode', 'acceptEdits', '--artifacts', journal]);
  const { session: created, host } = await createSession(cli);
  const session = withArtifactJournal(created, createArtifactJournal(journal, options));
  const active = new TurnScope().startCall({ callId: 'journal-test' });
  try {
    const authorize = authorizer({ mode: 'acceptEdits', ...sessionPolicy(session), ask: askNobody });
    return await finalizeFor(session, 'acceptEdits').call(name, input, active.context, { authorize });
  } finally {
    active.end();
    await host.dispose();
  }
}

async function undo(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = { stdout: (text: string) => void (stdout += text), stderr: (text: string) => void (stderr += text), readStdin: () => Promise.resolve(''), interactive: false };
  const code = await runCli(['undo', '--artifacts', journal, '--cwd', ws, ...args], io);
  return { code, stdout, stderr };
}

describe('the write-ahead journal (docs/decisions/0002-undo-promises.md)', () => {
  it('records the change pending before the file changes and marks it complete after', async () => {
    await writeFile(join(ws, 'keep.txt'), 'original\n');
    const result = await call('write', { path: 'keep.txt', content: 'new\n' });
    expect(result.status).toBe('ok');
    const [record, mark] = await parsedLines();
    expect(record).toMatchObject({ kind: 'file_change', pending: true, originalContent: 'original\n', undone: false });
    expect(mark).toEqual({ kind: 'file_change_complete', changeId: record?.changeId });
    expect(result.artifacts[0]).not.toHaveProperty('pending');
    const undone = await undo('--json');
    expect([undone.code, JSON.parse(undone.stdout)]).toEqual([0, { undone: [record?.changeId], conflicts: [], skipped: [] }]);
    expect(await content('keep.txt')).toBe('original\n');
  });

  it('a full disk while recording: io result, the file untouched, the torn half cut away', async () => {
    await writeFile(join(ws, 'keep.txt'), 'original\n');
    await call('write', { path: 'other.txt', content: 'first\n' });
    const before = await journalText();
    const result = await call('write', { path: 'keep.txt', content: 'new\n' }, failing('begin'));
    expect([result.status, result.status === 'ok' ? undefined : result.error.kind]).toEqual(['error', 'io']);
    expect(result.output).toMatch(/keep\.txt was left unchanged: .*ENOSPC/);
    expect(await content('keep.txt')).toBe('original\n');
    expect(await journalText()).toBe(before);
    expect((await readdir(ws)).sort()).toEqual(['keep.txt', 'other.txt']);
    // The journal goes on: the next change is recorded and undoable.
    expect((await call('write', { path: 'keep.txt', content: 'later\n' })).status).toBe('ok');
    const undone = await undo('--json');
    expect(JSON.parse(undone.stdout)).toMatchObject({ conflicts: [], skipped: [] });
    expect([await content('keep.txt'), await content('other.txt')]).toEqual(['original\n', null]);
  });

  it('a full disk while marking complete: io result, the new file, and a pending record that undo restores', async () => {
    await writeFile(join(ws, 'keep.txt'), 'original\n');
    const result = await call('edit', { path: 'keep.txt', oldText: 'original', newText: 'edited' }, failing('complete'));
    expect(result.status === 'ok' ? undefined : result.error.kind).toBe('io');
    expect(result.output).toMatch(/keep\.txt was changed, but the undo journal could not mark the change complete/);
    expect(await content('keep.txt')).toBe('edited\n');
    const lines = await parsedLines();
    expect(lines).toEqual([expect.objectContaining({ kind: 'file_change', pending: true, originalContent: 'original\n' })]);
    const undone = await undo('--json');
    expect([undone.code, JSON.parse(undone.stdout)]).toEqual([0, { undone: [lines[0]?.changeId], conflicts: [], skipped: [] }]);
    expect(await content('keep.txt')).toBe('original\n');
  });

  it('a commit that fails after the record is marked abandoned; undo skips it with the reason', async () => {
    await writeFile(join(ws, 'keep.txt'), 'original\n');
    // Someone else changes the file between the record and the commit, so the commit is refused as stale.
    const meddling: JournalOptions = {
      write: async (handle, text, step) => {
        await handle.appendFile(text);
        if (step === 'begin') await writeFile(join(ws, 'keep.txt'), 'theirs\n');
      },
    };
    const failed = await call('write', { path: 'keep.txt', content: 'new\n' }, meddling);
    expect(failed.status === 'ok' ? undefined : failed.error.kind).toBe('stale');
    const [record, mark] = await parsedLines();
    expect(mark).toEqual({ kind: 'file_change_abandoned', changeId: record?.changeId });
    const undone = await undo();
    expect(undone.code).toBe(0);
    expect(undone.stdout).toBe(`skipped   ${record?.changeId} (never made: its write failed, so there is nothing to undo)\n`);
    expect(await content('keep.txt')).toBe('theirs\n');
  });

  it('a pending record whose file still has its old content is skipped with a note, not a conflict', async () => {
    await writeFile(join(ws, 'keep.txt'), 'original\n');
    await call('write', { path: 'keep.txt', content: 'new\n' });
    await writeFile(join(ws, 'keep.txt'), 'original\n');
    // As after a crash between the record and the commit: the record without its mark.
    const [record] = await journalLines();
    await writeFile(journal, `${record}\n`);
    const undone = await undo('--json');
    const id = (JSON.parse(record ?? '{}') as { changeId: string }).changeId;
    expect([undone.code, JSON.parse(undone.stdout)]).toEqual([0, { undone: [], conflicts: [], skipped: [id] }]);
    expect(undone.stderr).toContain(`note: change ${id} was skipped: never completed`);
    expect(await content('keep.txt')).toBe('original\n');
  });

  it('a torn trailing line is skipped with a note; --change of a complete id still works; the torn line is kept', async () => {
    for (const name of ['a', 'b']) {
      await writeFile(join(ws, `${name}.txt`), `${name} original\n`);
      await call('write', { path: `${name}.txt`, content: `${name} new\n` });
    }
    const [first] = await parsedLines();
    // What an append cut by a full disk leaves: 4096 bytes of a record, no newline.
    const torn = JSON.stringify({ kind: 'file_change', changeId: 'torn', originalContent: 'x'.repeat(8000) }).slice(0, 4096);
    await writeFile(journal, `${await journalText()}${torn}`);
    const one = await undo('--change', first?.changeId ?? '', '--json');
    expect([one.code, JSON.parse(one.stdout)]).toEqual([0, { undone: [first?.changeId], conflicts: [], skipped: [] }]);
    expect(one.stderr).toMatch(/note: line 5 of .*changes\.jsonl is torn/);
    expect([await content('a.txt'), await content('b.txt')]).toEqual(['a original\n', 'b new\n']);
    expect(await journalText()).toContain(`${torn}\n`);
    // A new change after the torn line starts on a line of its own.
    await writeFile(join(ws, 'c.txt'), 'c original\n');
    await call('write', { path: 'c.txt', content: 'c new\n' });
    const rest = await undo();
    expect(rest.code).toBe(0);
    expect(rest.stdout.match(/^undone/gm)).toHaveLength(2);
    expect(rest.stdout).toContain(`skipped   ${first?.changeId} (already undone)`);
    expect([await content('b.txt'), await content('c.txt')]).toEqual(['b original\n', 'c original\n']);
  });

  it('a file that is not a journal is still refused as a usage error', async () => {
    await writeFile(journal, 'hello\n');
    expect((await undo()).code).toBe(2);
    await writeFile(journal, '{"kind":"something_else","changeId":"x"}\n');
    expect((await undo()).code).toBe(2);
  });
});
