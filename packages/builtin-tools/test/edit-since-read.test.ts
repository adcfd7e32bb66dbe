import { readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReadLedger } from '../src/index.ts';
import { createHarness, errorKind, type Harness } from './harness.ts';
import { callTool } from './search-world.ts';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.cleanup());

const file = (name: string) => join(h.ws, name);
const lines = (count: number, change: (index: number) => string | undefined = () => undefined) =>
  `${Array.from({ length: count }, (_, index) => change(index + 1) ?? `line ${index + 1}`).join('\n')}\n`;

describe('the read ledger follows the file, not the name (docs/decisions/0013)', () => {
  it('reading through a symlink and editing the real name share one history', async () => {
    await writeFile(file('real.txt'), lines(20));
    await symlink('real.txt', file('alias.txt'));
    await h.call('read', { path: 'alias.txt' });
    // A change next to the edit, after the model read the file through its other name.
    await writeFile(file('real.txt'), lines(20, (line) => (line === 9 ? 'changed 9' : undefined)));
    const result = await h.call('edit', { path: 'real.txt', oldText: 'line 10\n', newText: 'ten\n' });
    expect(errorKind(result)).toBe('stale');
    expect(await readFile(file('real.txt'), 'utf8')).toContain('line 10\n');
  });
});

describe('a change since the read stops an edit only where it replaces', () => {
  it('a change far from the replaced text lets the edit through, with a note naming the changed lines', async () => {
    await writeFile(file('a.ts'), lines(40));
    await h.call('read', { path: 'a.ts' });
    await writeFile(file('a.ts'), lines(40, (line) => (line === 2 || line === 3 ? `formatted ${line}` : line === 35 ? 'formatted 35' : undefined)));
    const result = await h.call('edit', { path: 'a.ts', oldText: 'line 20\n', newText: 'twenty\n' });
    expect(result.status, result.output).toBe('ok');
    expect(result.output).toContain('changed since you last read it (now lines 2–3, 35)');
    const final = await readFile(file('a.ts'), 'utf8');
    expect(final).toContain('twenty\n');
    expect(final).toContain('formatted 35\n');
  });

  it.each([
    ['a change inside the context lines around it', (line: number) => (line === 18 ? 'changed 18' : undefined), { oldText: 'line 20\n', newText: 'x\n' }],
    ['the replaced text itself changed and now appears twice', (line: number) => (line === 30 ? 'line 20' : undefined), { oldText: 'line 20\n', newText: 'x\n' }],
    ['replaceAll', (line: number) => (line === 2 ? 'changed 2' : undefined), { oldText: 'line 20\n', newText: 'x\n', replaceAll: true }],
  ])('%s stays stale', async (_name, change, input) => {
    await writeFile(file('a.ts'), lines(40));
    await h.call('read', { path: 'a.ts' });
    const changed = lines(40, change);
    await writeFile(file('a.ts'), changed);
    expect(errorKind(await h.call('edit', { path: 'a.ts', ...input }))).toBe('stale');
    expect(await readFile(file('a.ts'), 'utf8')).toBe(changed);
  });

  it('without the text it saw (over the ledger budget), any change is stale', async () => {
    const session = { ...h.session, readLedger: new ReadLedger({ maxTextChars: 10 }) };
    await writeFile(file('a.ts'), lines(40));
    await callTool(session, 'read', { path: 'a.ts' });
    await writeFile(file('a.ts'), lines(40, (line) => (line === 2 ? 'changed 2' : undefined)));
    expect(errorKind(await callTool(session, 'edit', { path: 'a.ts', oldText: 'line 20\n', newText: 'x\n' }))).toBe('stale');
  });

  it('the ledger drops the oldest text first and keeps the digests', () => {
    const ledger = new ReadLedger({ maxTextChars: 10 });
    ledger.remember('/a', 'da', 'aaaaaa');
    ledger.remember('/b', 'db', 'bbbbbb');
    expect(ledger.seen('/a')).toEqual({ sha256: 'da' });
    expect(ledger.seen('/b')).toEqual({ sha256: 'db', text: 'bbbbbb' });
    ledger.remember('/c', 'dc', 'c'.repeat(11));
    expect(ledger.seen('/c')).toEqual({ sha256: 'dc' });
  });
});
