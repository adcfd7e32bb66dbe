import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bashReader, createCommandClassifier, decideBashCommand } from '@openwork/bash-classifier';
import type { BashData } from '../src/index.ts';
import type { CommandClassifier } from '@openwork/bash-classifier';
import { createHarness, errorKind, type Harness } from './harness.ts';

let classifier: CommandClassifier;
beforeAll(async () => {
  classifier = await createCommandClassifier();
});

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await mkdir(join(h.ws, 'src', 'deep'), { recursive: true });
  await writeFile(join(h.ws, 'src', 'a.ts'), 'a\n');
  await writeFile(join(h.root, 'secret.txt'), 'secret\n');
  await symlink(h.root, join(h.ws, 'out'));
  await symlink(join(h.root, 'secret.txt'), join(h.ws, 'src', 'leak.txt'));
});
afterEach(async () => {
  await h.session.processes.dispose();
  await h.cleanup();
});

const decide = (command: string, workdir: string) =>
  decideBashCommand(classifier, h.session.paths, { kind: 'execute', command, cwd: join(h.ws, workdir) }, 'default', {
    filesystem: h.session.filesystem,
    bashReader: bashReader(h.session.processes, h.session.environment),
  });

describe('bash workdir', () => {
  it('starts the command in the directory, relative or absolute', async () => {
    const relative = await h.call('bash', { command: 'pwd && cat a.ts', workdir: 'src' });
    expect((relative.data as BashData).stdout.text).toBe(`${join(h.ws, 'src')}\na\n`);
    const absolute = await h.call('bash', { command: 'pwd', workdir: join(h.ws, 'src', 'deep') });
    expect((absolute.data as BashData).stdout.text).toBe(`${join(h.ws, 'src', 'deep')}\n`);
  });

  it('refuses a workdir outside the roots, through a symlink too, and one that is not a directory', async () => {
    expect(errorKind(await h.call('bash', { command: 'pwd', workdir: h.root }))).toBe('outside_root');
    expect(errorKind(await h.call('bash', { command: 'pwd', workdir: 'out' }))).toBe('outside_root');
    expect(errorKind(await h.call('bash', { command: 'pwd', workdir: 'src/a.ts' }))).toBe('not_a_directory');
    expect(errorKind(await h.call('bash', { command: 'pwd', workdir: 'missing' }))).toBe('not_found');
    expect(errorKind(await h.call('bash', { command: 'pwd', workdir: '' }))).toBe('invalid_input');
  });

  it('the classifier resolves the command\'s paths from the workdir', async () => {
    expect(await decide('cat a.ts', 'src')).toMatchObject({ verdict: 'allow' });
    const leak = await decide('cat leak.txt', 'src');
    expect(leak.verdict).toBe('ask');
    expect(leak.reason).toContain('src/leak.txt, which is outside the readable roots');
    expect((await decide('cat ../src/a.ts', 'src')).reason).toContain('has a ..');
    expect((await decide('ls', 'out')).reason).toContain('outside_root');
    expect((await decide(`cat ${join(h.ws, 'src', 'a.ts')}`, 'src/deep')).verdict).toBe('allow');
  });

  it('the acceptEdits gate resolves what a command writes from the workdir', async () => {
    const gate = (command: string, workdir: string) =>
      decideBashCommand(classifier, h.session.paths, { kind: 'execute', command, cwd: join(h.ws, workdir) }, 'acceptEdits', { filesystem: h.session.filesystem, bashReader: bashReader(h.session.processes, h.session.environment) });
    expect(await gate('touch made.txt', 'src/deep')).toMatchObject({ verdict: 'allow' });
    // The same name from a workdir that is a symlink out of the roots, and through a symlink inside it, is not inside the roots.
    expect((await gate('touch made.txt', 'out')).verdict).not.toBe('allow');
    expect((await gate('cp a.ts leak.txt', 'src')).verdict).not.toBe('allow');
    expect((await gate('rm a.ts', 'src')).verdict).toBe('allow');
    expect((await gate('rm ../../a.txt', 'src/deep')).verdict).not.toBe('allow');
  });
});
