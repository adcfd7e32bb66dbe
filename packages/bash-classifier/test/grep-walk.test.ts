import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFileSystem } from '@openwork/fs-backend/node';
import { PathGuard } from '@openwork/path-guard';
import { PipeProcessBackend } from '@openwork/process-backend/pipe';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bashReader, createCommandClassifier, decideBashCommand } from '../src/index.ts';
import type { CommandClassifier } from '../src/index.ts';

let classifier: CommandClassifier;
let base: string;
let ws: string;
let outside: string;

beforeAll(async () => {
  classifier = await createCommandClassifier();
});

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'ow-grep-walk-')));
  ws = join(base, 'ws');
  outside = join(base, 'outside');
  await mkdir(join(ws, 'src', 'deep'), { recursive: true });
  await mkdir(join(ws, 'other'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(ws, 'src', 'deep', 'a.py'), 'x = 1\n');
  await writeFile(join(outside, 'secret'), 'SECRET\n');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function decide(command: string) {
  const filesystem = new NodeFileSystem();
  const paths = await PathGuard.create({ workingDirectory: ws, probe: filesystem });
  const processes = new PipeProcessBackend();
  return decideBashCommand(classifier, paths, { kind: 'execute', command, cwd: ws }, 'default', { filesystem, bashReader: bashReader(processes, { PATH: process.env.PATH ?? '/usr/bin:/bin' }) });
}

describe('grep -R runs on its own when no symlink under it leads out of the roots', () => {
  it('a tree without symlinks, or with one that stays inside, runs', async () => {
    expect(await decide('grep -Rn "x =" src')).toMatchObject({ verdict: 'allow', rule: 'read_only:grep' });
    await symlink(join(ws, 'other'), join(ws, 'src', 'to-other'));
    expect(await decide('grep -R x src')).toMatchObject({ verdict: 'allow' });
    expect(await decide('grep --dereference-recursive x')).toMatchObject({ verdict: 'allow' });
  });

  it('a symlink out of the roots, at any depth, asks, naming it', async () => {
    await symlink(outside, join(ws, 'src', 'deep', 'out'));
    const decision = await decide('grep -R SECRET src');
    expect(decision.verdict).toBe('ask');
    expect(decision.reason).toContain('src/deep/out');
    // Without an operand grep -R walks the working directory.
    expect((await decide('grep -R SECRET')).verdict).toBe('ask');
    expect((await decide('grep -rR SECRET src/deep/*.py')).verdict).toBe('ask');
    // grep -r follows no symlink it meets while it walks: it stays inside.
    expect((await decide('grep -r SECRET src')).verdict).toBe('allow');
  });

  it('a symlink inside the roots is walked as grep walks it: one out beyond it asks', async () => {
    await symlink(join(ws, 'other'), join(ws, 'src', 'to-other'));
    await symlink(join(outside, 'secret'), join(ws, 'other', 'leak'));
    const decision = await decide('grep -R SECRET src');
    expect(decision.verdict).toBe('ask');
    expect(decision.reason).toContain('leak');
  });

  it('a symlink loop does not keep the check walking: it asks once the walk is too long', async () => {
    await symlink(join(ws, 'src'), join(ws, 'src', 'deep', 'loop'));
    const decision = await decide('grep -R x src');
    expect(decision.verdict).toBe('ask');
    expect(decision.reason).toContain('grep -R under src');
  });
});
