import { CallAborted, TurnScope, type ToolProgress, type ToolResult } from '@openwork/tool-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinTools, type GlobData, type GrepData } from '../src/index.ts';
import { compareBytes } from '../src/common/text.ts';
import { callTool, memoryWorld, nodeWorld, withReadHook, type SearchWorld } from './search-world.ts';

/** Files a search may still report after a cancel or deadline: what its walkers had in flight. */
const IN_FLIGHT = 256;

type Files = { files: string[]; truncated: boolean; skipped: { binary: number; tooLarge: number; unreadable: number } };
type Matches = { matches: { path: string; line: number; text: string; before?: { line: number; text: string }[]; after?: { line: number; text: string }[] }[]; truncated: boolean };

function builtinGrep() {
  const tool = builtinTools().find((candidate) => candidate.definition.name === 'grep');
  if (!tool) throw new Error('grep is not a built-in tool');
  return tool;
}

function errorOf(result: ToolResult): { kind: string; message: string } | undefined {
  return result.status === 'ok' ? undefined : result.error;
}

function files(result: ToolResult): string[] {
  expect(result.status, result.output).toBe('ok');
  return (result.data as Files).files;
}

describe.each([
  ['node', nodeWorld],
  ['memory', memoryWorld],
])('grep and glob on the %s file system', (_name, makeWorld) => {
  let world: SearchWorld;
  beforeEach(async () => {
    world = await makeWorld();
  });
  afterEach(() => world.cleanup());

  describe('ignore rules and .git', () => {
    beforeEach(async () => {
      await world.file('.gitignore', '*.log\nbuild/\nlogs/\n');
      await world.file('.ignore', 'secret.txt\n');
      await world.file('sub/.gitignore', '!keep.log\n');
      await world.file('a/.gitignore', '!logs/\n');
      for (const path of ['a.log', 'sub/keep.log', 'sub/other.log', 'build/out.js', 'secret.txt', 'src/main.js', 'logs/y.txt', 'a/logs/x.txt', '.git/config', '.git/objects/x']) {
        await world.file(path, 'the needle is here\n');
      }
    });

    it('honours nested .gitignore with negation, .ignore, and never enters .git/', async () => {
      const session = await world.session();
      expect(files(await callTool(session, 'grep', { pattern: 'needle' }))).toEqual(['a/logs/x.txt', 'src/main.js', 'sub/keep.log']);
      expect((await callTool(session, 'glob', { pattern: '**/*' })).data).toEqual({
        paths: ['.gitignore', '.ignore', 'a/.gitignore', 'a/logs/x.txt', 'src/main.js', 'sub/.gitignore', 'sub/keep.log'],
        truncated: false,
      });
    });

    it('includeIgnored opts out of the ignore files but still skips .git/', async () => {
      const session = await world.session();
      const all = ['a.log', 'a/logs/x.txt', 'build/out.js', 'logs/y.txt', 'secret.txt', 'src/main.js', 'sub/keep.log', 'sub/other.log'];
      expect(files(await callTool(session, 'grep', { pattern: 'needle', includeIgnored: true }))).toEqual(all);
      const globbed = (await callTool(session, 'glob', { pattern: '**', includeIgnored: true })).data as GlobData;
      expect(globbed.paths.filter((path) => path.startsWith('.git/'))).toEqual([]);
    });

    it('applies the ignore files above a searched subdirectory', async () => {
      const session = await world.session();
      expect(files(await callTool(session, 'grep', { pattern: 'needle', path: 'sub' }))).toEqual(['sub/keep.log']);
      expect(files(await callTool(session, 'grep', { pattern: 'needle', path: 'build' }))).toEqual(['build/out.js']);
    });
  });

  describe('ignore rules match letter case as the repository says', () => {
    const names = ['foo.html', 'foo.HTML', 'foo.htm', 'foo.HTM', 'readme', 'README'];
    beforeEach(async () => {
      await world.file('.gitignore', '*.html\nreadme\n');
      for (const name of names) await world.file(`site/${name}`, 'needle\n');
    });

    it('case-sensitive where core.ignorecase is not set: *.html keeps foo.HTML, readme keeps README (ripgrep cs1–cs4)', async () => {
      const session = await world.session();
      expect(files(await callTool(session, 'grep', { pattern: 'needle' }))).toEqual(['site/README', 'site/foo.HTM', 'site/foo.HTML', 'site/foo.htm']);
      expect(((await callTool(session, 'glob', { pattern: 'site/*' })).data as GlobData).paths).toEqual(['site/README', 'site/foo.HTM', 'site/foo.HTML', 'site/foo.htm']);
      await world.file('.git/config', '[core]\n\tignorecase = false\n');
      expect(files(await callTool(session, 'grep', { pattern: 'needle', path: 'site' }))).toEqual(['site/README', 'site/foo.HTM', 'site/foo.HTML', 'site/foo.htm']);
    });

    it('case-insensitive where the repository sets core.ignorecase, also for a subdirectory searched', async () => {
      await world.file('.git/config', '[Core]\n\trepositoryformatversion = 0\n\tIgnoreCase = true\n');
      const session = await world.session();
      expect(files(await callTool(session, 'grep', { pattern: 'needle' }))).toEqual(['site/foo.HTM', 'site/foo.htm']);
      expect(files(await callTool(session, 'grep', { pattern: 'needle', path: 'site' }))).toEqual(['site/foo.HTM', 'site/foo.htm']);
      expect(((await callTool(session, 'glob', { pattern: '*', path: 'site' })).data as GlobData).paths).toEqual(['site/foo.HTM', 'site/foo.htm']);
    });

    it("a worktree's .git file leads to the common directory's config", async () => {
      await world.file('.git', 'gitdir: main.git/worktrees/w\n');
      await world.file('main.git/worktrees/w/commondir', '../..\n');
      await world.file('main.git/config', '[core]\n\tignorecase = true\n');
      const session = await world.session();
      expect(files(await callTool(session, 'grep', { pattern: 'needle', path: 'site' }))).toEqual(['site/foo.HTM', 'site/foo.htm']);
    });
  });

  describe("grep's glob is ripgrep's -g", () => {
    it('r405: !/foo/** leaves out foo/ at the searched path and nothing deeper', async () => {
      await world.file('foo/bar/file1.txt', 'test\n');
      await world.file('bar/foo/file2.txt', 'test\n');
      const session = await world.session();
      expect(files(await callTool(session, 'grep', { pattern: 'test', glob: '!/foo/**' }))).toEqual(['bar/foo/file2.txt']);
      // Anchored at the searched path: below `bar`, `foo/` is at the top.
      expect(files(await callTool(session, 'grep', { pattern: 'test', glob: '!/foo/**', path: 'bar' }))).toEqual([]);
      expect(files(await callTool(session, 'grep', { pattern: 'test', glob: '!foo/**' }))).toEqual(['bar/foo/file2.txt']);
      expect(files(await callTool(session, 'grep', { pattern: 'test', glob: '!**/foo/**' }))).toEqual([]);
    });

    it('r2990: !asdf/ leaves out the folder asdf and not asdf. (and the other way round)', async () => {
      await world.file('asdf/foo', 'test\n');
      await world.file('asdf./foo', 'test\n');
      await world.file('x/asdf', 'test\n');
      const session = await world.session();
      expect(files(await callTool(session, 'grep', { pattern: 'test', glob: '!asdf/' }))).toEqual(['asdf./foo', 'x/asdf']);
      expect(files(await callTool(session, 'grep', { pattern: 'test', glob: '!asdf./' }))).toEqual(['asdf/foo', 'x/asdf']);
      expect(files(await callTool(session, 'grep', { pattern: 'test', glob: '!asdf' }))).toEqual(['asdf./foo']);
    });

    it('keeps only what a glob without ! matches, itself, never through a parent; alternatives; an unclosed class is invalid_input', async () => {
      for (const name of ['a.js', 'b.jsx', 'c.ts', 'tests/d.ts', 'tests/e.js', 'src/tests.js']) await world.file(name, 'test\n');
      const session = await world.session();
      expect(files(await callTool(session, 'grep', { pattern: 'test', glob: '*.{js,jsx}' }))).toEqual(['a.js', 'b.jsx', 'src/tests.js', 'tests/e.js']);
      // `tests*` matches the directory `tests`, not the files in it (ripgrep matches each path on its own).
      expect(files(await callTool(session, 'grep', { pattern: 'test', glob: 'tests*' }))).toEqual(['src/tests.js']);
      expect(files(await callTool(session, 'grep', { pattern: 'test', glob: 'tests/**' }))).toEqual(['tests/d.ts', 'tests/e.js']);
      const unclosed = errorOf(await callTool(session, 'grep', { pattern: 'test', glob: '[abc' }));
      expect(unclosed?.kind).toBe('invalid_input');
      expect(unclosed?.message).toMatch(/without its closing \]/);
    });
  });

  it('glob: folders named (group) and [id] by a literal path and by patterns around them; extglob characters are literal', async () => {
    for (const folder of ['(dashboard)', '[id]', 'i', 'x']) await world.file(`src/app/${folder}/page.tsx`, 'test\n');
    const session = await world.session();
    const paths = async (pattern: string) => ((await callTool(session, 'glob', { pattern })).data as GlobData).paths;
    expect(await paths('src/app/(dashboard)/page.tsx')).toEqual(['src/app/(dashboard)/page.tsx']);
    expect(await paths('src/app/*/(dashboard)/page.tsx')).toEqual([]);
    expect(await paths('src/*/(dashboard)/page.tsx')).toEqual(['src/app/(dashboard)/page.tsx']);
    expect(await paths('**/*(dash*)*/*.tsx')).toEqual(['src/app/(dashboard)/page.tsx']);
    // As a glob, [id] is a class (the folder i); as the path it names, the folder [id].
    expect(await paths('src/app/[id]/page.tsx')).toEqual(['src/app/[id]/page.tsx', 'src/app/i/page.tsx']);
    expect(await paths('src/app/\\[id\\]/page.tsx')).toEqual(['src/app/[id]/page.tsx']);
    expect(await paths('src/app/*id*/*')).toEqual(['src/app/[id]/page.tsx']);
    expect(await paths('src/app/*/page.tsx')).toEqual(['src/app/(dashboard)/page.tsx', 'src/app/[id]/page.tsx', 'src/app/i/page.tsx', 'src/app/x/page.tsx']);
    for (const extglob of ['src/app/@(x)/page.tsx', 'src/app/+(x)/page.tsx', 'src/app/!(x)/page.tsx', '!src/app/x/page.tsx']) expect(await paths(extglob)).toEqual([]);
    expect(files(await callTool(session, 'grep', { pattern: 'test', glob: 'src/app/(dashboard)/*.tsx' }))).toEqual(['src/app/(dashboard)/page.tsx']);
    expect(errorOf(await callTool(session, 'glob', { pattern: 'src/{a,b' }))?.kind).toBe('invalid_input');
  });

  it('glob: dir/** and ** alone find files at every depth, and nothing outside dir', async () => {
    for (const path of ['top.txt', 'sub/one.txt', 'sub/deep/two.txt', 'sub/deep/er/three.txt', 'other/four.txt']) await world.file(path, 'x\n');
    const session = await world.session();
    const paths = async (pattern: string) => ((await callTool(session, 'glob', { pattern })).data as GlobData).paths;
    expect(await paths('sub/**')).toEqual(['sub/deep/er/three.txt', 'sub/deep/two.txt', 'sub/one.txt']);
    expect(await paths('**')).toEqual(['other/four.txt', 'sub/deep/er/three.txt', 'sub/deep/two.txt', 'sub/one.txt', 'top.txt']);
    expect(await paths('sub/deep/**')).toEqual(['sub/deep/er/three.txt', 'sub/deep/two.txt']);
  });

  it('a name with a newline is one entry in the text of list, glob and grep; the data keeps the real name', async () => {
    await world.file('plain.txt', 'needle\n');
    await world.file('two\nlines.txt', 'needle\n');
    await world.file('esc\u001b[2J.txt', 'needle\n');
    const session = await world.session();
    const listed = await callTool(session, 'list', {});
    expect(listed.output.split('\n')).toEqual(['"esc\\u001b[2J.txt"\t7', 'plain.txt\t7', '"two\\nlines.txt"\t7']);
    expect((listed.data as { entries: { name: string }[] }).entries.map((entry) => entry.name)).toEqual(['esc\u001b[2J.txt', 'plain.txt', 'two\nlines.txt']);
    const globbed = await callTool(session, 'glob', { pattern: '*.txt' });
    expect(globbed.output.split('\n')).toEqual(['"esc\\u001b[2J.txt"', 'plain.txt', '"two\\nlines.txt"']);
    expect((globbed.data as GlobData).paths).toEqual(['esc\u001b[2J.txt', 'plain.txt', 'two\nlines.txt']);
    expect((await callTool(session, 'grep', { pattern: 'needle' })).output.split('\n')).toEqual(['"esc\\u001b[2J.txt"', 'plain.txt', '"two\\nlines.txt"']);
    expect((await callTool(session, 'grep', { pattern: 'needle', mode: 'content', path: 'two\nlines.txt' })).output).toBe('"two\\nlines.txt":1:needle');
    expect((await callTool(session, 'grep', { pattern: 'needle', mode: 'count', glob: 'two*' })).output).toBe('"two\\nlines.txt":1');
    // The quoted form is the JSON the model puts in its next call.
    const shown = globbed.output.split('\n')[2] ?? '';
    expect((await callTool(session, 'read', { path: JSON.parse(shown) as string })).status).toBe('ok');
  });

  it('numbers out of range are invalid_input before anything runs', async () => {
    await world.file('a.txt', 'x\n');
    const session = await world.session();
    const cases: [string, Record<string, unknown>][] = [
      ['grep', { pattern: 'x', maxResults: 1e300 }],
      ['grep', { pattern: 'x', maxResults: 2 ** 53 }],
      ['grep', { pattern: 'x', context: 1e300 }],
      ['glob', { pattern: '*', maxResults: 1e300 }],
      ['list', { offset: 1e300 }],
      ['list', { limit: 1e300 }],
      ['read', { path: 'a.txt', offset: 1e300 }],
      ['read', { path: 'a.txt', limit: 1e300 }],
    ];
    for (const [tool, input] of cases) expect(errorOf(await callTool(session, tool, input)), `${tool} ${JSON.stringify(input)}`).toMatchObject({ kind: 'invalid_input' });
    expect(files(await callTool(session, 'grep', { pattern: 'x', maxResults: Number.MAX_SAFE_INTEGER }))).toEqual(['a.txt']);
  });

  it('skips a binary file and a too-large file and counts them in skipped', async () => {
    await world.file('text.txt', 'needle\n');
    await world.file('image.bin', Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2]), Buffer.from('needle')]));
    await world.file('huge.txt', `${'x'.repeat(3000)}\nneedle\n`);
    const session = await world.session({ limits: { maxSearchFileBytes: 1024 } });
    const result = await callTool(session, 'grep', { pattern: 'needle' });
    expect(result.data).toEqual({ files: ['text.txt'], truncated: false, skipped: { binary: 1, tooLarge: 1, unreadable: 0 } });
    expect(result.output).toContain('1 binary, 1 larger than 1 KiB');
  });

  it('counts a file it cannot read as unreadable and goes on', async () => {
    if (!world.denyRead) return;
    await world.file('a.txt', 'needle\n');
    await world.file('b.txt', 'needle\n');
    world.denyRead('a.txt');
    const result = await callTool(await world.session(), 'grep', { pattern: 'needle' });
    expect(result.data).toEqual({ files: ['b.txt'], truncated: false, skipped: { binary: 0, tooLarge: 0, unreadable: 1 } });
  });

  it('a deadline in the middle of the walk ends as timed_out', async () => {
    for (let index = 0; index < 200; index += 1) await world.file(`t/f${index}.txt`, 'needle\n');
    const controller = new AbortController();
    let reads = 0;
    const session = await world.session({
      wrap: (filesystem) =>
        withReadHook(filesystem, () => {
          reads += 1;
          // What a call's deadline timer does when it fires.
          if (reads === 20) controller.abort(new CallAborted('timed_out'));
        }),
    });
    const prepared = builtinGrep().prepare(session, { pattern: 'needle' }, 'deadline');
    const result = 'run' in prepared ? await prepared.run({ callId: 'deadline', signal: controller.signal }) : prepared;
    expect(errorOf(result)?.kind).toBe('timed_out');
    expect(reads).toBeLessThanOrEqual(20 + IN_FLIGHT);
  });

  it('never follows a symlinked directory or a symlink leading outside the roots', async () => {
    await world.file('src/main.js', 'needle\n');
    await world.file(`../outside/secret.js`, 'needle\n');
    await world.symlink('linked', `${world.ws}/src`);
    await world.symlink('relative-linked', 'src');
    await world.symlink('escape.js', `${world.outside}/secret.js`);
    await world.symlink('escape-dir', world.outside);
    await world.symlink('alias.js', 'src/main.js');
    await world.symlink('loop', 'loop');
    const session = await world.session();
    expect(files(await callTool(session, 'grep', { pattern: 'needle' }))).toEqual(['alias.js', 'src/main.js']);
    expect(((await callTool(session, 'glob', { pattern: '**/*.js' })).data as GlobData).paths).toEqual(['alias.js', 'src/main.js']);
    const content = await callTool(session, 'grep', { pattern: 'needle', mode: 'content', includeIgnored: true });
    expect(content.output).not.toContain('secret');
  });

  it('150 matching files against the default bound of 100: truncated, the first 100 in sorted order', async () => {
    const names = Array.from({ length: 150 }, (_, index) => `d${index % 7}/f${String(index).padStart(3, '0')}.txt`);
    for (const name of names) await world.file(name, 'needle\n');
    const session = await world.session();
    const result = await callTool(session, 'grep', { pattern: 'needle' });
    const data = result.data as Files;
    expect(data.truncated).toBe(true);
    expect(data.files).toEqual([...names].sort(compareBytes).slice(0, 100));
    expect(result.output).toMatch(/showing the first 100 files in path order; more exist\. Narrow the search/);

    await world.file('lines.txt', 'needle\n'.repeat(150));
    const lines = (await callTool(session, 'grep', { pattern: 'needle', mode: 'content', path: 'lines.txt' })).data as Matches;
    expect(lines.matches.map((match) => match.line)).toEqual(Array.from({ length: 100 }, (_, index) => index + 1));
    expect(lines.truncated).toBe(true);
    const exact = (await callTool(session, 'grep', { pattern: 'needle', mode: 'content', path: 'lines.txt', maxResults: 150 })).data as Matches;
    expect(exact.truncated).toBe(false);
  });

  it('an invalid regex and an unsupported construct are invalid_input with the engine message', async () => {
    const session = await world.session();
    const invalid = errorOf(await callTool(session, 'grep', { pattern: 'foo(' }));
    expect(invalid?.kind).toBe('invalid_input');
    expect(invalid?.message).toContain('missing closing )');
    const backreference = errorOf(await callTool(session, 'grep', { pattern: '(a)\\1' }));
    expect(backreference?.kind).toBe('invalid_input');
    expect(backreference?.message).toMatch(/backreferences and lookahead\/lookbehind are not supported/);
    expect(errorOf(await callTool(session, 'grep', { pattern: '(?=x)y' }))?.kind).toBe('invalid_input');
  });

  it('a catastrophic pattern on a long line returns promptly with the right answer (linear engine)', async () => {
    await world.file('evil.txt', `${'a'.repeat(100_000)}!\n`);
    await world.file('fine.txt', 'aaaa\n');
    const session = await world.session();
    // A backtracking engine would not finish this line within the test's timeout; the answer is what is checked.
    const result = await callTool(session, 'grep', { pattern: '^(a+)+$' });
    expect(files(result)).toEqual(['fine.txt']);
    expect(files(await callTool(session, 'grep', { pattern: '(a+)+!' }))).toEqual(['evil.txt']);
  });

  it('cancellation in the middle of a large walk ends promptly with a cancelled result', async () => {
    for (let index = 0; index < 3000; index += 1) await world.file(`tree/d${index % 30}/f${index}.txt`, 'needle\n');
    const scope = new TurnScope();
    let reads = 0;
    const session = await world.session({
      wrap: (filesystem) =>
        withReadHook(filesystem, () => {
          reads += 1;
          if (reads === 200) scope.cancel();
        }),
    });
    const result = await callTool(session, 'grep', { pattern: 'needle', mode: 'count', maxResults: 5000 }, { scope });
    expect(errorOf(result)?.kind).toBe('cancelled');
    // Nothing new starts after the cancel: at most the reads already in flight.
    expect(reads).toBeLessThanOrEqual(200 + IN_FLIGHT);
    // A real deadline timer fires during the walk, on either file system.
    const late = await callTool(await world.session(), 'grep', { pattern: 'needle', mode: 'count', maxResults: 5000 }, { timeoutMs: 2 });
    expect(errorOf(late)?.kind).toBe('timed_out');
  });

  it('grep / glob stop walking at the limit instead of collecting the whole tree first: stops reading once the bound is reached and nothing later can enter the result', async () => {
    for (let index = 0; index < 600; index += 1) await world.file(`d${index % 12}/f${String(index).padStart(4, '0')}.txt`, 'needle\n');
    let reads = 0;
    const session = await world.session({ wrap: (filesystem) => withReadHook(filesystem, () => (reads += 1)) });
    const result = await callTool(session, 'grep', { pattern: 'needle', maxResults: 10 });
    expect(files(result)).toEqual(Array.from({ length: 10 }, (_, index) => `d0/f${String(index * 12).padStart(4, '0')}.txt`));
    expect((result.data as Files).truncated).toBe(true);
    // The first 11 (bound + 1), what was in flight, and what started while those results came in; never the other 500.
    expect(reads).toBeLessThanOrEqual(11 + 2 * 16);
    expect(reads).toBeLessThan(100);
  });

  it('reports progress every 1000 files on a long search, and the result does not depend on it', async () => {
    for (let index = 0; index < 2100; index += 1) await world.file(`p/d${index % 7}/f${index}.txt`, index % 3 === 0 ? 'needle\n' : 'hay\n');
    const events: ToolProgress[] = [];
    const session = await world.session();
    const watched = await callTool(session, 'grep', { pattern: 'needle', mode: 'count', maxResults: 5000 }, { progress: (event) => events.push(event) });
    expect(events.map((event) => (event.kind === 'message' ? event.message.replace(/in \d+ directories; \d+ results/, 'in D directories; R results') : event.kind))).toEqual([
      'searched 1000 files in D directories; R results so far',
      'searched 2000 files in D directories; R results so far',
    ]);
    const listed = await callTool(session, 'glob', { pattern: '**/*.txt', maxResults: 2000 }, { progress: (event) => events.push(event) });
    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(watched.data).toEqual((await callTool(session, 'grep', { pattern: 'needle', mode: 'count', maxResults: 5000 })).data);
    expect((listed.data as { paths: string[] }).paths).toHaveLength(2000);
  });

  it('glob, too, stops listing once its bound is reached', async () => {
    for (let index = 0; index < 300; index += 1) await world.file(`g${String(index).padStart(3, '0')}/x.js`, '');
    let listed = 0;
    const session = await world.session({ wrap: (filesystem) => withReadHook(filesystem, () => undefined, () => (listed += 1)) });
    const result = await callTool(session, 'glob', { pattern: '**/*.js', maxResults: 5 });
    expect((result.data as GlobData).paths).toEqual(['g000/x.js', 'g001/x.js', 'g002/x.js', 'g003/x.js', 'g004/x.js']);
    // The root, the directories that hold the first six, and what was in flight or started meanwhile; never all 300.
    expect(listed).toBeLessThanOrEqual(1 + 6 + 2 * 16);
  });

  it('gives identical output over repeated runs, each in a session of its own', async () => {
    const names = ['a-b/x.txt', 'a/b.txt', 'a.b', 'a/b/c.txt', 'Z.txt', 'ä.txt', 'z/𝒳.txt', 'a/b-c.txt', 'a/b/c/d/e.txt', 'm.txt'];
    for (let index = 0; index < 60; index += 1) names.push(`deep/${index % 5}/${index % 3}/n${index}.txt`);
    for (const name of names) await world.file(name, 'one needle\ntwo\nthree needle\n');
    const expected = [...names].sort(compareBytes);
    const outputs = new Set<string>();
    for (let run = 0; run < 4; run += 1) {
      const session = await world.session();
      for (const input of [{ pattern: 'needle' }, { pattern: 'needle', maxResults: 9 }, { pattern: 'needle', mode: 'content', maxResults: 13 }, { pattern: 'needle', mode: 'count' }]) {
        const result = await callTool(session, 'grep', input);
        outputs.add(JSON.stringify([input, result.output, result.data]));
      }
      const globbed = await callTool(session, 'glob', { pattern: '**/*', maxResults: 11 });
      outputs.add(JSON.stringify([globbed.output, globbed.data]));
      expect(files(await callTool(session, 'grep', { pattern: 'needle', maxResults: 1000 }))).toEqual(expected);
    }
    expect(outputs.size).toBe(5);
  });

  it('content mode: 1-based line numbers, context lines, ripgrep layout', async () => {
    await world.file('f.txt', Array.from({ length: 10 }, (_, index) => (index === 2 || index === 4 || index === 8 ? `hit ${index + 1}` : `line ${index + 1}`)).join('\n') + '\n');
    const session = await world.session();
    const plain = await callTool(session, 'grep', { pattern: 'hit', mode: 'content' });
    expect(plain.output).toBe('f.txt:3:hit 3\nf.txt:5:hit 5\nf.txt:9:hit 9');
    expect((plain.data as Matches).matches[0]).toEqual({ path: 'f.txt', line: 3, text: 'hit 3' });
    const withContext = await callTool(session, 'grep', { pattern: 'hit', mode: 'content', context: 1 });
    expect(withContext.output).toBe(['f.txt-2-line 2', 'f.txt:3:hit 3', 'f.txt-4-line 4', 'f.txt:5:hit 5', 'f.txt-6-line 6', '--', 'f.txt-8-line 8', 'f.txt:9:hit 9', 'f.txt-10-line 10'].join('\n'));
    expect((withContext.data as Matches).matches[0]).toEqual({ path: 'f.txt', line: 3, text: 'hit 3', before: [{ line: 2, text: 'line 2' }], after: [{ line: 4, text: 'line 4' }] });
  });

  it('count mode, caseInsensitive and the glob filter', async () => {
    await world.file('src/a.ts', 'Needle\nneedle\nNEEDLE\n');
    await world.file('src/deep/b.ts', 'needle\n');
    await world.file('src/c.js', 'needle\n');
    await world.file('top.ts', 'needle\n');
    const session = await world.session();
    expect((await callTool(session, 'grep', { pattern: 'needle', mode: 'count' })).data).toMatchObject({
      counts: [
        { path: 'src/a.ts', count: 1 },
        { path: 'src/c.js', count: 1 },
        { path: 'src/deep/b.ts', count: 1 },
        { path: 'top.ts', count: 1 },
      ],
    });
    const insensitive = await callTool(session, 'grep', { pattern: 'needle', mode: 'count', caseInsensitive: true, path: 'src/a.ts' });
    expect((insensitive.data as GrepData & { counts: unknown }).counts).toEqual([{ path: 'src/a.ts', count: 3 }]);
    expect(insensitive.output).toBe('src/a.ts:3');
    // ripgrep -g: no slash matches the name at any depth; a slash, the path relative to `path`.
    expect(files(await callTool(session, 'grep', { pattern: 'needle', glob: '*.ts' }))).toEqual(['src/a.ts', 'src/deep/b.ts', 'top.ts']);
    expect(files(await callTool(session, 'grep', { pattern: 'needle', glob: 'src/*.ts' }))).toEqual(['src/a.ts']);
    expect(files(await callTool(session, 'grep', { pattern: 'needle', glob: 'deep/*.ts', path: 'src' }))).toEqual(['src/deep/b.ts']);
  });

  it('cuts a long line and says so', async () => {
    await world.file('long.txt', `needle${'y'.repeat(5000)}\n`);
    const session = await world.session();
    const result = await callTool(session, 'grep', { pattern: 'needle', mode: 'content' });
    expect((result.data as Matches).matches[0]?.text).toHaveLength(2000);
    expect(result.output).toMatch(/line cut: 3006 more characters/);
  });

  it('glob: **/*.js sorted, files only, relative to path; bounds and roots checked', async () => {
    for (const name of ['b.js', 'a/z.js', 'a/b/c.js', 'a/x.ts', 'a-b.js', 'dir.js/inner.txt']) await world.file(name, '');
    const session = await world.session();
    expect((await callTool(session, 'glob', { pattern: '**/*.js' })).data).toEqual({ paths: ['a-b.js', 'a/b/c.js', 'a/z.js', 'b.js'], truncated: false });
    expect((await callTool(session, 'glob', { pattern: '*.js', path: 'a' })).data).toEqual({ paths: ['a/z.js'], truncated: false });
    const bounded = await callTool(session, 'glob', { pattern: '**/*.js', maxResults: 2 });
    expect(bounded.data).toEqual({ paths: ['a-b.js', 'a/b/c.js'], truncated: true });
    expect(bounded.output).toMatch(/showing the first 2 paths in path order; more match/);
    for (const maxResults of [0, 2001]) expect(errorOf(await callTool(session, 'glob', { pattern: '*', maxResults }))?.kind).toBe('invalid_input');
    expect(errorOf(await callTool(session, 'grep', { pattern: 'x', maxResults: 0 }))?.kind).toBe('invalid_input');
    expect((await callTool(session, 'glob', { pattern: '../**/*' })).data).toEqual({ paths: [], truncated: false });
    expect((await callTool(session, 'glob', { pattern: `${world.outside}/*` })).data).toEqual({ paths: [], truncated: false });
    expect(errorOf(await callTool(session, 'glob', { pattern: '*', path: '..' }))?.kind).toBe('outside_root');
    expect(errorOf(await callTool(session, 'grep', { pattern: 'x', path: world.outside }))?.kind).toBe('outside_root');
    expect(errorOf(await callTool(session, 'glob', { pattern: '*', path: 'b.js' }))?.kind).toBe('not_a_directory');
    expect(errorOf(await callTool(session, 'grep', { pattern: 'x', path: 'missing' }))?.kind).toBe('not_found');
  });
});
