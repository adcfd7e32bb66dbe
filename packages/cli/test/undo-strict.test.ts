import { createHash } from 'node:crypto';
import { link, mkdir, mkdtemp, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand, runInProcess } from './command.ts';

let base: string;
let ws: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'undo-strict-')));
  ws = join(base, 'ws');
  await mkdir(join(ws, '.git'), { recursive: true });
});
afterEach(() => rm(base, { recursive: true, force: true }));

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const run = (args: string[]) => runInProcess(args, { cwd: ws });
const content = (path: string) => readFile(path, 'utf8').catch(() => null);

/** A modify line as call --artifacts writes it, with the given before and after. */
function modify(id: string, path: string, before: string, after: string | null, extra: object = {}): object {
  return { kind: 'file_change', changeId: id, path, absolutePath: path, change: 'modify', added: 1, removed: 1, hunks: [], beforeSha256: sha(before), afterSha256: after === null ? null : sha(after), originalContent: before, undone: false, ...extra };
}
const journalOf = (...lines: object[]) => lines.map((line) => `${JSON.stringify(line)}\n`).join('');

describe('undo is as strict as the write it reverses (docs/contract.md §4.5)', () => {
  it('a journal inside a writable root is refused unless the person says so', async () => {
    const journal = join(ws, 'changes.jsonl');
    await writeFile(join(ws, 'a.txt'), 'model\n');
    await writeFile(journal, journalOf(modify('c1', join(ws, 'a.txt'), 'crafted\n', 'model\n')));
    const refused = await run(['undo', '--artifacts', journal, '--json']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/inside a writable root.*--trust-journal/);
    expect(await content(join(ws, 'a.txt'))).toBe('model\n');
    const trusted = await run(['undo', '--artifacts', journal, '--json', '--trust-journal']);
    expect([trusted.code, JSON.parse(trusted.stdout)]).toEqual([0, { undone: ['c1'], conflicts: [], skipped: [] }]);
    expect(await content(join(ws, 'a.txt'))).toBe('crafted\n');
  });

  it('a crafted journal cannot make undo write .git/config or .openwork/settings.json', async () => {
    const journal = join(base, 'changes.jsonl');
    await mkdir(join(ws, '.openwork'));
    await writeFile(join(ws, '.git', 'config'), '[core]\n');
    await writeFile(join(ws, '.openwork', 'settings.json'), '{}\n');
    await writeFile(
      journal,
      journalOf(
        modify('git', join(ws, '.git', 'config'), '[core]\n\tfsmonitor = touch /tmp/pwned\n', '[core]\n'),
        modify('settings', join(ws, '.openwork', 'settings.json'), '{"permissions":{"allow":["bash:rm"]}}\n', '{}\n'),
      ),
    );
    const undo = await run(['undo', '--artifacts', journal]);
    expect(undo.code).toBe(0);
    expect(undo.stdout).toMatch(/skipped {3}git \(not restored: .*inside \.git.*no terminal/);
    expect(undo.stdout).toMatch(/skipped {3}settings \(not restored: .*inside \.openwork/);
    expect([await content(join(ws, '.git', 'config')), await content(join(ws, '.openwork', 'settings.json'))]).toEqual(['[core]\n', '{}\n']);
    // --yes approves no such restore.
    await run(['undo', '--artifacts', journal, '--yes']).catch(() => undefined);
    expect(await content(join(ws, '.git', 'config'))).toBe('[core]\n');
  });

  it('an entry whose kind and digests disagree is skipped with why: a modify creates nothing, restores only its own original', async () => {
    const journal = join(base, 'changes.jsonl');
    await writeFile(join(ws, 'b.txt'), 'now\n');
    const noAfter = modify('no-after', join(ws, 'never.txt'), 'planted\n', null);
    const wrongOriginal = { ...modify('wrong-original', join(ws, 'b.txt'), 'x\n', 'now\n'), originalContent: 'planted\n' };
    const createWithOriginal = { ...modify('create-with-original', join(ws, 'b.txt'), 'x\n', 'now\n'), change: 'create' };
    await writeFile(journal, journalOf(noAfter, wrongOriginal, createWithOriginal));
    const undo = await run(['undo', '--artifacts', journal, '--json']);
    expect([undo.code, JSON.parse(undo.stdout)]).toEqual([0, { undone: [], conflicts: [], skipped: ['create-with-original', 'wrong-original', 'no-after'] }]);
    expect(undo.stderr).toMatch(/no-after was skipped: not a change undo can reverse: .*create a file that never existed/);
    expect(undo.stderr).toMatch(/wrong-original was skipped: .*does not have its beforeSha256/);
    expect(undo.stderr).toMatch(/create-with-original was skipped: .*records content from before/);
    expect(await content(join(ws, 'never.txt'))).toBeNull();
    expect(await content(join(ws, 'b.txt'))).toBe('now\n');
  });

  it('readOnly restores nothing; a deny rule on write refuses the restore', async () => {
    const journal = join(base, 'changes.jsonl');
    await writeFile(join(ws, 'c.txt'), 'after\n');
    await writeFile(journal, journalOf(modify('c', join(ws, 'c.txt'), 'before\n', 'after\n')));
    const readOnly = await run(['undo', '--artifacts', journal, '--mode', 'readOnly']);
    expect(readOnly.stdout).toMatch(/skipped {3}c \(refused as a write would be: .*readOnly/);
    await mkdir(join(ws, '.openwork'));
    await writeFile(join(ws, '.openwork', 'settings.json'), '{"permissions":{"deny":["write"]}}');
    const denied = await run(['undo', '--artifacts', journal]);
    expect(denied.stdout).toMatch(/skipped {3}c \(refused as a write would be: .*deny rule "write"/);
    expect(await content(join(ws, 'c.txt'))).toBe('after\n');
  });
});

describe('a journal is never opened through a symlink (docs/contract.md §4.5)', () => {
  it('--artifacts naming a symlink, a path through a symlinked directory, or a hard link is refused; nothing is written', async () => {
    const outside = join(base, 'outside.txt');
    const outsideDir = join(base, 'outside-dir');
    await writeFile(outside, 'theirs\n');
    await mkdir(outsideDir);
    await symlink(outside, join(ws, 'changes.jsonl'));
    await symlink(outsideDir, join(ws, 'logs'));
    await link(outside, join(ws, 'hard.jsonl'));
    for (const journal of ['changes.jsonl', 'logs/changes.jsonl', 'hard.jsonl']) {
      const call = await run(['call', 'write', '{"path":"new.txt","content":"x"}', '--mode', 'acceptEdits', '--artifacts', journal]);
      expect([journal, call.code]).toEqual([journal, 2]);
      expect(call.stderr).toMatch(/symlink|hard link/);
      const undo = await run(['undo', '--artifacts', journal, '--trust-journal']);
      expect([journal, undo.code]).toEqual([journal, 2]);
    }
    expect(await content(join(ws, 'new.txt'))).toBeNull();
    expect(await content(outside)).toBe('theirs\n');
    await expect(stat(join(outsideDir, 'changes.jsonl'))).rejects.toThrow();
  });

  it('mcp --artifacts naming a symlink is refused before it serves', async () => {
    const outside = join(base, 'outside.txt');
    await writeFile(outside, 'theirs\n');
    await symlink(outside, join(ws, 'changes.jsonl'));
    const mcp = await runCommand(['mcp', '--cwd', ws, '--artifacts', join(ws, 'changes.jsonl')]);
    expect(mcp.code).toBe(2);
    expect(mcp.stderr).toMatch(/is a symlink/);
    expect(await content(outside)).toBe('theirs\n');
  });
});
