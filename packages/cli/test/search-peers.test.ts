import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runInProcess } from './command.ts';

let base: string;
let ws: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'search-peers-')));
  ws = join(base, 'ws');
  await mkdir(join(ws, '.git'), { recursive: true });
  await mkdir(join(base, 'home'));
  // Nothing of the person's own git configuration reaches these searches.
  vi.stubEnv('HOME', join(base, 'home'));
  vi.stubEnv('XDG_CONFIG_HOME', join(base, 'home', '.config'));
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(base, { recursive: true, force: true });
});

const call = async (tool: string, input: object) => {
  const run = await runInProcess(['call', tool, JSON.stringify(input), '--json'], { cwd: ws });
  return JSON.parse(run.stdout) as { status: string; output: string; data: { files?: string[]; paths?: string[] }; error?: { kind: string } };
};

describe("search answers as ripgrep's own tests expect", () => {
  it('glob: the pattern [abc, exactly a file name, finds that file (rg regression r3127); grep glob [abc stays invalid, as rg -g', async () => {
    await writeFile(join(ws, '[abc'), 'needle\n');
    await writeFile(join(ws, 'a'), 'needle\n');
    const found = await call('glob', { pattern: '[abc' });
    expect(found.data.paths).toEqual(['[abc']);
    expect((await call('glob', { pattern: '[abc]' })).data.paths).toEqual(['a']);
    expect((await call('grep', { pattern: 'needle', glob: '[abc' })).error?.kind).toBe('invalid_input');
  });

  it('grep type all is any file of a known type (rg -tall)', async () => {
    await mkdir(join(ws, 'typed'));
    await writeFile(join(ws, 'typed', 'code.ts'), 'marker\n');
    await writeFile(join(ws, 'typed', 'notes.unknownext'), 'marker\n');
    const result = await call('grep', { pattern: 'marker', path: 'typed', type: 'all' });
    expect(result.data.files).toEqual(['typed/code.ts']);
  });

  it("a .git file, even an empty one, is a repository's root: the parent repository's .gitignore stops there, as a .git directory stops it", async () => {
    await mkdir(join(ws, 'nested', 'sub'), { recursive: true });
    await writeFile(join(ws, 'nested', '.gitignore'), '*.log\n');
    await writeFile(join(ws, 'nested', 'sub', '.git'), '');
    await writeFile(join(ws, 'nested', 'sub', 'x.log'), 'found\n');
    await writeFile(join(ws, 'nested', 'y.log'), 'found\n');
    expect((await call('grep', { pattern: 'found', path: 'nested/sub' })).data.files).toEqual(['nested/sub/x.log']);
    expect((await call('grep', { pattern: 'found', path: 'nested' })).data.files).toEqual(['nested/sub/x.log']);
  });

  it("GIT_CONFIG_GLOBAL's core.excludesFile is honoured in place of ~/.gitconfig (git and rg read it so)", async () => {
    await mkdir(join(ws, 'global'));
    await writeFile(join(ws, 'global', 'kept.txt'), 'probe\n');
    await writeFile(join(ws, 'global', 'hidden.log'), 'probe\n');
    await writeFile(join(base, 'excludes'), '*.log\n');
    await writeFile(join(base, 'global-config'), `[core]\n\texcludesFile = ${join(base, 'excludes')}\n`);
    vi.stubEnv('GIT_CONFIG_GLOBAL', join(base, 'global-config'));
    try {
      expect((await call('grep', { pattern: 'probe', path: 'global' })).data.files).toEqual(['global/kept.txt']);
    } finally {
      vi.stubEnv('GIT_CONFIG_GLOBAL', '');
    }
    expect((await call('grep', { pattern: 'probe', path: 'global' })).data.files).toEqual(['global/hidden.log', 'global/kept.txt']);
  });
});
