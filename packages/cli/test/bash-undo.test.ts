import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from './command.ts';

let base: string;
let ws: string;
let journal: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'bash-undo-')));
  ws = join(base, 'ws');
  await mkdir(join(ws, '.git'), { recursive: true });
  journal = join(base, 'changes.jsonl');
});
afterAll(() => rm(base, { recursive: true, force: true }));

const run = (args: string[]) => runInProcess(args, { cwd: ws });
const content = (name: string) => readFile(join(ws, name), 'utf8').catch(() => null);
const bash = (command: string) => run(['call', 'bash', JSON.stringify({ command }), '--mode', 'acceptEdits', '--artifacts', journal, '--json']);

describe('writes bash makes in acceptEdits are undoable (docs/contract.md §4.5)', () => {
  it('records each target of a gate command before and after, and undo restores them, newest first', async () => {
    await writeFile(join(ws, 'f.txt'), 'a\na\n');
    const edited = await bash('sed -i s/a/b/ f.txt');
    expect(edited.code, edited.stdout + edited.stderr).toBe(0);
    expect(await content('f.txt')).toBe('b\nb\n');
    const result = JSON.parse(edited.stdout) as { artifacts: { change: string; path: string; added: number; removed: number }[] };
    expect(result.artifacts).toMatchObject([{ change: 'modify', path: 'f.txt', added: 2, removed: 2 }]);

    const created = await bash("cat <<'EOF' > new.txt\nhello\nEOF");
    expect(created.code, created.stdout + created.stderr).toBe(0);
    expect(await content('new.txt')).toBe('hello\n');
    const appended = await bash('echo more >> f.txt');
    expect(appended.code, appended.stdout + appended.stderr).toBe(0);
    const copied = await bash('cp f.txt copy.txt');
    expect(copied.code, copied.stdout + copied.stderr).toBe(0);
    // A read-only line and a line that leaves its target as it was record nothing.
    expect(JSON.parse((await bash('cat f.txt')).stdout)).not.toHaveProperty('artifacts.0');
    expect(JSON.parse((await bash('touch f.txt')).stdout)).not.toHaveProperty('artifacts.0');

    const lines = (await readFile(journal, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { kind: string; pending?: boolean });
    expect(lines.filter((line) => line.kind === 'file_change')).toHaveLength(4);
    expect(lines.filter((line) => line.kind === 'file_change_complete')).toHaveLength(4);

    const undo = await run(['undo', '--artifacts', journal, '--trust-journal', '--json']);
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    expect(JSON.parse(undo.stdout)).toMatchObject({ conflicts: [], skipped: [] });
    expect(await content('f.txt')).toBe('a\na\n');
    expect(await content('new.txt')).toBeNull();
    expect(await content('copy.txt')).toBeNull();
  });

  it('finds the targets from where the line starts (workdir), and names a target it cannot keep as text', async () => {
    const other = join(base, 'workdir.jsonl');
    await mkdir(join(ws, 'sub'), { recursive: true });
    await writeFile(join(ws, 'sub', 'w.txt'), 'a\n');
    await writeFile(join(ws, 'sub', 'bin.dat'), Buffer.from([0, 1, 2]));
    const edited = await run(['call', 'bash', JSON.stringify({ command: 'sed -i s/a/b/ w.txt bin.dat', workdir: 'sub' }), '--mode', 'acceptEdits', '--artifacts', other, '--json']);
    expect(edited.code, edited.stdout + edited.stderr).toBe(0);
    const result = JSON.parse(edited.stdout) as { output: string; artifacts: { path: string }[] };
    expect(result.artifacts.map((artifact) => artifact.path)).toEqual(['sub/w.txt']);
    expect(result.output).toContain('Not recorded for undo: sub/bin.dat (binary).');
    const undo = await run(['undo', '--artifacts', other, '--trust-journal', '--json']);
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    expect(await content('sub/w.txt')).toBe('a\n');
  });

  it('a line that removes a file records nothing, so undo cannot lose the only copy of what it held', async () => {
    const other = join(base, 'moves.jsonl');
    await writeFile(join(ws, 'm.txt'), 'kept\n');
    await writeFile(join(ws, 'dst.txt'), 'old\n');
    const moved = await run(['call', 'bash', JSON.stringify({ command: 'mv m.txt dst.txt' }), '--mode', 'acceptEdits', '--artifacts', other, '--json']);
    expect(moved.code, moved.stdout + moved.stderr).toBe(0);
    const result = JSON.parse(moved.stdout) as { output: string; artifacts?: unknown[] };
    expect(result.artifacts ?? []).toEqual([]);
    expect(result.output).toContain('Not recorded for undo: m.txt (removed), dst.txt (the line also removed a file');
    expect(await readFile(other, 'utf8').catch(() => '')).toBe('');
    expect(await content('dst.txt')).toBe('kept\n');
  });

  it('a command run with a person\'s approval, or in default mode, records nothing: the gate did not pick its targets', async () => {
    const other = join(base, 'other.jsonl');
    await writeFile(join(ws, 'g.txt'), 'a\n');
    const asked = await run(['call', 'bash', JSON.stringify({ command: 'sed -i s/a/b/ g.txt' }), '--yes', '--artifacts', other, '--json']);
    expect(asked.code, asked.stdout + asked.stderr).toBe(0);
    expect(await content('g.txt')).toBe('b\n');
    expect(await readFile(other, 'utf8').catch(() => '')).toBe('');
  });
});
