import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
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
  return JSON.parse(run.stdout) as {
    status: string;
    output: string;
    data: { files?: string[]; paths?: string[]; skipped?: { binary: number } };
    error?: { kind: string };
  };
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

  it('a UTF-16 file with a byte-order mark is searched as its text, as read decodes it (rg transcodes it); a NUL in that text is binary', async () => {
    await mkdir(join(ws, 'utf16'));
    const text = 'first line\r\nthe needle in UTF-16\r\nlast\r\n';
    const little = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const big = Buffer.from(little).swap16();
    await writeFile(join(ws, 'utf16', 'le.txt'), little);
    await writeFile(join(ws, 'utf16', 'be.txt'), big);
    await writeFile(join(ws, 'utf16', 'nul.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('the needle\0 and a NUL\n', 'utf16le')]));
    // UTF-16 without a BOM stays binary, as in rg (its zero bytes are NULs).
    await writeFile(join(ws, 'utf16', 'bare.txt'), Buffer.from(text, 'utf16le'));
    expect((await call('read', { path: 'utf16/le.txt' })).output).toContain('the needle in UTF-16');
    const files = await call('grep', { pattern: 'needle in', path: 'utf16' });
    expect(files.data).toMatchObject({ files: ['utf16/be.txt', 'utf16/le.txt'], skipped: { binary: 2 } });
    const content = await call('grep', { pattern: 'needle.*UTF', path: 'utf16', mode: 'content' });
    expect(content.output.split('\n').filter((line) => line.includes('needle'))).toEqual(['utf16/be.txt:2:the needle in UTF-16', 'utf16/le.txt:2:the needle in UTF-16']);
    expect((await call('grep', { pattern: 'needle', path: 'utf16', mode: 'count' })).output).toContain('utf16/le.txt:1');
  });

  it('ignore lines read as git reads them: foo\\/, [abc and their neighbours (git check-ignore is the oracle)', async () => {
    const repository = join(ws, 'lines');
    await mkdir(repository);
    const gitEnvironment = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
    await promisify(execFile)('git', ['init', '-q'], { cwd: repository, env: gitEnvironment });
    const files = ['foo/in-foo.txt', 'sub/foo/in-sub-foo.txt', 'foo\\/in-backslash.txt', '[abc', 'a', 'b', 'x[abc', '[abc]', 'abc/in-abc.txt'];
    for (const file of files) {
      await mkdir(join(repository, file, '..'), { recursive: true });
      await writeFile(join(repository, file), 'probe\n');
    }
    const linesThatIgnore: string[] = [];
    for (const line of ['foo\\/', '[abc', '[abc/', 'foo\\\\/', '\\[abc', '[!abc', '*[abc', '[abc]', 'x[abc', '[a-']) {
      await writeFile(join(repository, '.gitignore'), `${line}\n`);
      // git answers for a path alone; a file is out when it or one of its folders is ignored.
      const paths = [...new Set(files.flatMap((file) => file.split('/').map((_, index, parts) => parts.slice(0, index + 1).join('/'))))];
      // --stdin -z: the paths as they are, not C-quoted (a name with a backslash would be); exit 1 is "none ignored".
      const ignored = await new Promise<string[]>((resolve, reject) => {
        const child = execFile('git', ['check-ignore', '--no-index', '--stdin', '-z'], { cwd: repository, env: gitEnvironment }, (error, stdout) => {
          if (error !== null && error.code !== 1) reject(new Error(`git check-ignore: ${error.message}`));
          else resolve(stdout.split('\0').filter(Boolean));
        });
        child.stdin?.end(paths.join('\0'));
      });
      if (ignored.length > 0) linesThatIgnore.push(line);
      const kept = files.filter((file) => !ignored.some((path) => file === path || file.startsWith(`${path}/`))).map((file) => `lines/${file}`);
      const found = await call('grep', { pattern: 'probe', path: 'lines' });
      expect({ line, files: found.data.files }).toEqual({ line, files: kept.sort() });
    }
    // The oracle answers: an unclosed [ matches nothing, an escaped one is literal, foo\/ escapes the slash and names nothing.
    expect(linesThatIgnore).toEqual(['foo\\\\/', '\\[abc', '[abc]']);
  });
});
