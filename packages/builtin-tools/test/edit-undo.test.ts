import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileChangeArtifact } from '@openwork/tool-contract';
import { applyPatch } from 'diff';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { undoChanges } from '../src/index.ts';
import { createHarness, errorKind, type Harness } from './harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.cleanup());

const file = (name: string) => join(h.ws, name);
const artifactsOf = (result: { artifacts: readonly FileChangeArtifact[] }) => [...result.artifacts];
const signal = () => new AbortController().signal;

describe('edit (docs/design.md §9, §11 tool semantics)', () => {
  it('edit fails when oldText is missing, repeated or equal to the new text', async () => {
    await writeFile(file('a.ts'), 'const x = 1;\nconst x = 1;\nconst y = 2;\n');
    const missing = await h.call('edit', { path: 'a.ts', oldText: 'const z = 1;', newText: 'q' });
    expect(errorKind(missing)).toBe('no_match');
    expect(missing.output).toMatch(/closest lines/);
    const twice = await h.call('edit', { path: 'a.ts', oldText: 'const x = 1;', newText: 'q' });
    expect(errorKind(twice)).toBe('ambiguous_match');
    expect(twice.output).toMatch(/lines 1, 2/);
    expect(errorKind(await h.call('edit', { path: 'a.ts', oldText: 'y', newText: 'y' }))).toBe('no_change');
    expect(errorKind(await h.call('edit', { path: 'a.ts', oldText: '', newText: 'new' }))).toBe('already_exists');
    expect(await readFile(file('a.ts'), 'utf8')).toBe('const x = 1;\nconst x = 1;\nconst y = 2;\n');
    const all = await h.call('edit', { path: 'a.ts', oldText: 'const x = 1;', newText: 'let x;', replaceAll: true });
    expect(all.data).toEqual({ path: 'a.ts', replacements: 2, created: false });
  });

  it('keeps CRLF, a BOM and $& literally', async () => {
    await writeFile(file('crlf.txt'), '\uFEFFone\r\ntwo\r\nthree\r\n');
    const result = await h.call('edit', { path: 'crlf.txt', oldText: 'one\ntwo', newText: 'uno\ndos $& $1 $$' });
    expect(result.status).toBe('ok');
    expect(await readFile(file('crlf.txt'), 'utf8')).toBe('\uFEFFuno\r\ndos $& $1 $$\r\nthree\r\n');
    await writeFile(file('mixed.txt'), 'a\nb\r\nc\n');
    await h.call('edit', { path: 'mixed.txt', oldText: 'a\nb', newText: 'A\nB' });
    expect(await readFile(file('mixed.txt'), 'utf8')).toBe('A\nB\r\nc\n');
  });

  it('edits a 1 MiB file with the match at the end', async () => {
    await writeFile(file('big.txt'), `${'x'.repeat(1024 * 1024 - 10)}\nNEEDLE\n`);
    const result = await h.call('edit', { path: 'big.txt', oldText: 'NEEDLE', newText: 'found' });
    expect(result.status).toBe('ok');
    expect((await readFile(file('big.txt'), 'utf8')).endsWith('\nfound\n')).toBe(true);
  });

  it('edit returns stale and does not overwrite when a concurrent change altered the digest: a change since the last read is stale', async () => {
    await writeFile(file('s.txt'), 'alpha\n');
    await h.call('read', { path: 's.txt' });
    await writeFile(file('s.txt'), 'alpha beta\n');
    expect(errorKind(await h.call('edit', { path: 's.txt', oldText: 'alpha', newText: 'gamma' }))).toBe('stale');
    expect(await readFile(file('s.txt'), 'utf8')).toBe('alpha beta\n');
  });

  it('10 concurrent edits of one file: every ok edit is in the final file, the others are stale', async () => {
    await writeFile(file('c.txt'), Array.from({ length: 10 }, (_, index) => `token${index}`).join('\n'));
    const results = await Promise.all(Array.from({ length: 10 }, (_, index) => h.call('edit', { path: 'c.txt', oldText: `token${index}`, newText: `done${index}` })));
    const final = await readFile(file('c.txt'), 'utf8');
    results.forEach((result, index) => {
      if (result.status === 'ok') expect(final).toContain(`done${index}`);
      else expect(['stale']).toContain(errorKind(result));
    });
    expect(results.some((result) => result.status === 'ok')).toBe(true);
  });

  it('produces a file_change artifact with hunks, counts and digests, kept out of the model text', async () => {
    await writeFile(file('d.txt'), 'one\ntwo\nthree\n');
    const result = await h.call('edit', { path: 'd.txt', oldText: 'two', newText: 'TWO' });
    const [artifact] = artifactsOf(result);
    expect(artifact).toMatchObject({ kind: 'file_change', path: 'd.txt', absolutePath: file('d.txt'), change: 'modify', added: 1, removed: 1, originalContent: 'one\ntwo\nthree\n', undone: false });
    expect(artifact?.hunks[0]?.lines).toEqual([' one', '-two', '+TWO', ' three']);
    expect(result.output).not.toContain('originalContent');
  });
});

describe('artifacts after a reload (docs/design.md §10)', () => {
  it('after a session reload the exact diff of the time can still be shown: an artifact read back from JSON still turns the original into the file as it was written', async () => {
    await writeFile(file('r.txt'), 'a\nb\nc\nd\ne\nf\ng\nh\n');
    const result = await h.call('edit', { path: 'r.txt', oldText: 'b\nc', newText: 'B\nC\nC2' });
    const written = await readFile(file('r.txt'), 'utf8');
    const [artifact] = artifactsOf(result);
    // The journal is JSON lines; the file then moves on.
    const reloaded = JSON.parse(JSON.stringify(artifact)) as FileChangeArtifact;
    await writeFile(file('r.txt'), 'something else entirely\n');
    expect(reloaded).toEqual(artifact);
    const patch = { oldFileName: 'r.txt', newFileName: 'r.txt', oldHeader: undefined, newHeader: undefined, hunks: reloaded.hunks.map((hunk) => ({ ...hunk, lines: [...hunk.lines] })) };
    expect(applyPatch(reloaded.originalContent ?? '', patch)).toBe(written);
    expect(reloaded.hunks.flatMap((hunk) => hunk.lines.filter((line) => !line.startsWith(' ')))).toEqual(['-b', '-c', '+B', '+C', '+C2']);
  });
});

describe('undo (docs/design.md §10)', () => {
  it('undo returns a conflict when the hash does not match: an external change is a conflict and its bytes are kept', async () => {
    await writeFile(file('u.txt'), 'v1\n');
    const change = artifactsOf(await h.call('edit', { path: 'u.txt', oldText: 'v1', newText: 'v2' }));
    await writeFile(file('u.txt'), 'external\n');
    const report = await undoChanges(h.session, change, { signal: signal() });
    expect(report.conflicts.map((conflict) => conflict.changeId)).toEqual([change[0]?.changeId]);
    expect(await readFile(file('u.txt'), 'utf8')).toBe('external\n');
  });

  it('several changes in one batch are undone in reverse order: create then edit ends with the file gone; three edits and another file restore', async () => {
    const journal: FileChangeArtifact[] = [];
    journal.push(...artifactsOf(await h.call('edit', { path: 'new.txt', oldText: '', newText: 'a\n' })));
    journal.push(...artifactsOf(await h.call('edit', { path: 'new.txt', oldText: 'a', newText: 'b' })));
    await writeFile(file('one.txt'), '1 2 3\n');
    await writeFile(file('two.txt'), 'x\n');
    for (const [from, to] of [['1', 'one'], ['2', 'two'], ['3', 'three']]) journal.push(...artifactsOf(await h.call('edit', { path: 'one.txt', oldText: from, newText: to })));
    journal.push(...artifactsOf(await h.call('write', { path: 'two.txt', content: 'y\n' })));
    const report = await undoChanges(h.session, journal, { signal: signal() });
    expect(report.undone).toEqual(journal.map((change) => change.changeId).reverse());
    expect(report.conflicts).toEqual([]);
    await expect(readFile(file('new.txt'))).rejects.toThrow();
    expect(await readFile(file('one.txt'), 'utf8')).toBe('1 2 3\n');
    expect(await readFile(file('two.txt'), 'utf8')).toBe('x\n');
    const again = await undoChanges(h.session, journal.map((change) => ({ ...change, undone: true })), { signal: signal() });
    expect(again.skipped).toHaveLength(journal.length);
  });

  it('property: for random files and exact edits, undo restores the original bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 200 }), fc.nat(), fc.nat(), fc.string({ maxLength: 20 }), async (content, start, length, replacement) => {
        const from = start % content.length;
        const oldText = content.slice(from, from + 1 + (length % 10));
        if (oldText === replacement || content.includes('\r') || content.includes('\0')) return;
        await writeFile(file('p.txt'), content);
        h.session.readLedger.forget(file('p.txt'));
        const result = await h.call('edit', { path: 'p.txt', oldText, newText: replacement, replaceAll: true });
        expect(result.status).toBe('ok');
        await undoChanges(h.session, artifactsOf(result), { signal: signal() });
        expect(await readFile(file('p.txt'), 'utf8')).toBe(content);
      }),
      { numRuns: 100 },
    );
  });
});
