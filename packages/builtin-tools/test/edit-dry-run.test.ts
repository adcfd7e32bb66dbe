// edit with dryRun: the diff it would apply, and nothing else, on the real
// and the in-memory file system alike.
import type { FileChangeArtifact } from '@openwork/tool-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editTool, type BuiltinSession, type ChangeJournal } from '../src/index.ts';
import { errorKind } from './harness.ts';
import { callTool, memoryWorld, nodeWorld, type SearchWorld } from './search-world.ts';

const signal = () => new AbortController().signal;

describe.each([
  ['the real file system', nodeWorld],
  ['the in-memory file system', memoryWorld],
])('edit with dryRun on %s', (_label, makeWorld) => {
  let world: SearchWorld;
  let session: BuiltinSession;
  let journaled: FileChangeArtifact[];

  beforeEach(async () => {
    world = await makeWorld();
    journaled = [];
    const journal: ChangeJournal = {
      begin: (change) => Promise.resolve(void journaled.push(change)),
      complete: (change) => Promise.resolve(void journaled.push(change)),
      abandon: (change) => Promise.resolve(void journaled.push(change)),
    };
    session = { ...(await world.session()), changeJournal: journal };
    await world.file('a.ts', 'one\ntwo\nthree\n');
  });
  afterEach(() => world.cleanup());

  /** The file's text now, through the backend under test; null when there is none. */
  const content = async (path: string): Promise<string | null> => {
    const checked = await session.paths.resolvePath(path, 'read', 'may_create', { signal: signal() });
    if (!checked.exists) return null;
    return new TextDecoder().decode(await session.filesystem.readFile(checked, { maxBytes: 1 << 20, signal: signal() }));
  };
  const ledgerEntry = async (path: string) => session.readLedger.seen(session.paths.canonicalKey(await session.paths.resolvePath(path, 'read', 'must_exist', { signal: signal() })));

  it('returns the unified diff it would apply, and writes, journals and remembers nothing', async () => {
    await callTool(session, 'read', { path: 'a.ts' });
    const seen = await ledgerEntry('a.ts');
    const result = await callTool(session, 'edit', { path: 'a.ts', oldText: 'two', newText: 'TWO', dryRun: true });
    const diff = '--- a.ts\n+++ a.ts\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n';
    expect(result).toMatchObject({ status: 'ok', data: { path: 'a.ts', replacements: 1, created: false, dryRun: true, diff }, artifacts: [] });
    expect(result.output).toBe(`Dry run: the edit would make 1 replacement in a.ts (+1 -1 lines); nothing was written.\n${diff.trimEnd()}`);
    expect(await content('a.ts')).toBe('one\ntwo\nthree\n');
    expect(journaled).toEqual([]);
    expect(await ledgerEntry('a.ts')).toEqual(seen);
    // The edit itself makes the change the diff showed.
    const applied = await callTool(session, 'edit', { path: 'a.ts', oldText: 'two', newText: 'TWO' });
    expect(applied.artifacts[0]?.kind === 'file_change' ? applied.artifacts[0].hunks[0]?.lines : undefined).toEqual([' one', '-two', '+TWO', ' three']);
    expect(await content('a.ts')).toBe('one\nTWO\nthree\n');
  });

  it('a dry run of a new file shows it against /dev/null and creates nothing', async () => {
    const result = await callTool(session, 'edit', { path: 'src/new.ts', oldText: '', newText: 'a\nb\n', dryRun: true });
    const diff = '--- /dev/null\n+++ src/new.ts\n@@ -0,0 +1,2 @@\n+a\n+b\n';
    expect(result).toMatchObject({ status: 'ok', data: { path: 'src/new.ts', replacements: 0, created: true, dryRun: true, diff }, artifacts: [] });
    expect(result.output).toMatch(/^Dry run: the edit would create src\/new\.ts \(\+2 lines\); nothing was written\./);
    expect(await content('src/new.ts')).toBeNull();
    expect(await content('src')).toBeNull();
    expect(journaled).toEqual([]);
  });

  it('fails as the edit would: no match, several matches, no change, a file that exists or does not', async () => {
    await world.file('twice.ts', 'x\nx\n');
    const cases: [Record<string, unknown>, string][] = [
      [{ path: 'a.ts', oldText: 'four', newText: '4' }, 'no_match'],
      [{ path: 'twice.ts', oldText: 'x', newText: 'y' }, 'ambiguous_match'],
      [{ path: 'a.ts', oldText: 'one', newText: 'one' }, 'no_change'],
      [{ path: 'a.ts', oldText: '', newText: 'new' }, 'already_exists'],
      [{ path: 'gone.ts', oldText: 'a', newText: 'b' }, 'not_found'],
      [{ path: 'a.ts', edits: [{ oldText: 'one', newText: '1' }, { oldText: 'four', newText: '4' }] }, 'no_match'],
    ];
    for (const [input, kind] of cases) {
      expect(errorKind(await callTool(session, 'edit', { ...input, dryRun: true })), JSON.stringify(input)).toBe(kind);
      expect(errorKind(await callTool(session, 'edit', input)), JSON.stringify(input)).toBe(kind);
    }
    expect(await content('a.ts')).toBe('one\ntwo\nthree\n');
    expect(journaled).toEqual([]);
  });

  it('a file changed around the text since it was read is stale for a dry run too, and a dry run does not refresh what was read', async () => {
    await callTool(session, 'read', { path: 'a.ts' });
    await world.file('a.ts', 'one\ntwo!\nthree\n');
    expect(errorKind(await callTool(session, 'edit', { path: 'a.ts', oldText: 'three', newText: '3', dryRun: true }))).toBe('stale');
    // Changed far from the text: the dry run goes ahead with the note, as the edit would, and leaves the ledger as the read left it.
    await world.file('a.ts', 'one\ntwo\nthree\n');
    await callTool(session, 'read', { path: 'a.ts' });
    const seen = await ledgerEntry('a.ts');
    await world.file('a.ts', 'one\ntwo\nthree\n\n\n\n\nFOUR\n');
    const result = await callTool(session, 'edit', { path: 'a.ts', oldText: 'one', newText: '1', dryRun: true });
    expect(result.status).toBe('ok');
    expect(result.output).toMatch(/changed since you last read it/);
    expect(await ledgerEntry('a.ts')).toEqual(seen);
    // FOUR was never read: had the dry run remembered the file it looked at, this edit would skip the check.
    expect(errorKind(await callTool(session, 'edit', { path: 'a.ts', oldText: 'FOUR', newText: '4' }))).toBe('stale');
  });

  it('its effect is a read of the path, so the policy judges it as one', () => {
    expect(editTool.effect({ path: 'a.ts', oldText: 'a', newText: 'b', dryRun: true }, session)).toEqual({ kind: 'read', paths: ['a.ts'] });
    expect(editTool.effect({ path: 'a.ts', oldText: 'a', newText: 'b' }, session)).toEqual({ kind: 'write', paths: ['a.ts'] });
  });
});
