import { describe, expect, it } from 'vitest';
import { compileGlob } from '../src/glob-pattern.ts';
import { globFilter, grepGlobFilter } from '../src/path-filter.ts';

const matches = (pattern: string, path: string) => compileGlob(pattern).test(path);

describe('the contract glob syntax: * ** ? [abc] {a,b}, everything else literal', () => {
  it('wildcards stay within a segment; ** crosses them', () => {
    expect(matches('*.ts', 'a.ts')).toBe(true);
    expect(matches('*.ts', 'src/a.ts')).toBe(false);
    expect(matches('**/*.ts', 'a.ts')).toBe(true);
    expect(matches('**/*.ts', 'src/deep/a.ts')).toBe(true);
    expect(matches('src/**/b', 'src/b')).toBe(true);
    expect(matches('src/**/b', 'src/x/y/b')).toBe(true);
    expect(matches('src/**', 'src/x/y')).toBe(true);
    expect(matches('**', 'a/b/c')).toBe(true);
    expect(matches('a**b', 'axxb')).toBe(true);
    expect(matches('a**b', 'ax/xb')).toBe(false);
    expect(matches('?.ts', 'a.ts')).toBe(true);
    expect(matches('?.ts', '/.ts')).toBe(false);
    expect(matches('?.ts', '𝒳.ts')).toBe(true);
    expect(matches('*', '.hidden')).toBe(true);
    expect(matches('./src/*.ts', 'src/a.ts')).toBe(true);
  });

  it('classes, ranges and negated classes; a negated class never matches /', () => {
    expect(matches('[abc].ts', 'b.ts')).toBe(true);
    expect(matches('[abc].ts', 'd.ts')).toBe(false);
    expect(matches('[a-c]x', 'bx')).toBe(true);
    expect(matches('[!a-c]x', 'dx')).toBe(true);
    expect(matches('[^a-c]x', 'ax')).toBe(false);
    expect(matches('a[!b]c', 'a/c')).toBe(false);
    expect(matches('[]]', ']')).toBe(true);
    expect(matches('[!]]', 'a')).toBe(true);
    expect(matches('[-a]', '-')).toBe(true);
  });

  it('{a,b} alternatives, nested, with wildcards inside; repeated groups multiply', () => {
    expect(matches('*.{js,jsx}', 'a.jsx')).toBe(true);
    expect(matches('*.{js,jsx}', 'a.ts')).toBe(false);
    expect(matches('{src,test}/**/*.ts', 'test/x/a.ts')).toBe(true);
    expect(matches('a{b,c{d,e}}f', 'acef')).toBe(true);
    expect(matches('{a,b}{c,d}', 'bd')).toBe(true);
    expect(matches('{,x}a', 'a')).toBe(true);
    expect(matches('{**/,}a.ts', 'x/y/a.ts')).toBe(true);
    expect(matches('a,b}', 'a,b}')).toBe(true);
  });

  it('parentheses and extglob characters are literal', () => {
    expect(matches('src/app/*/(dashboard)/page.tsx', 'src/app/x/(dashboard)/page.tsx')).toBe(true);
    expect(matches('(a|b).ts', 'a.ts')).toBe(false);
    expect(matches('(a|b).ts', '(a|b).ts')).toBe(true);
    expect(matches('+(a).ts', '+(a).ts')).toBe(true);
    expect(matches('+(a).ts', 'aa.ts')).toBe(false);
    expect(matches('@(x)', '@(x)')).toBe(true);
    expect(matches('!(x)', '!(x)')).toBe(true);
    expect(matches('!x', 'x')).toBe(false);
    expect(matches('a.b$^', 'a.b$^')).toBe(true);
    expect(matches('a.b', 'axb')).toBe(false);
  });

  it('a backslash makes the next character literal', () => {
    expect(matches('app/\\[id\\]/*', 'app/[id]/page.tsx')).toBe(true);
    expect(matches('\\*', '*')).toBe(true);
    expect(matches('\\*', 'a')).toBe(false);
    expect(matches('\\{a,b\\}', '{a,b}')).toBe(true);
  });

  it('an unclosed [ or { is invalid_input that says how to match it literally', () => {
    for (const pattern of ['[abc', 'a{b,c', '{[a,b}']) {
      expect(() => compileGlob(pattern)).toThrow(expect.objectContaining({ kind: 'invalid_input', message: expect.stringContaining('backslash') as string }) as Error);
    }
  });

  it('too many alternatives is invalid_input, and a pathological pattern stays linear', () => {
    expect(() => compileGlob('{a,b}'.repeat(11))).toThrow(expect.objectContaining({ kind: 'invalid_input' }) as Error);
    // A backtracking matcher would not finish these within the test's timeout; a linear one answers at once.
    expect(matches(`${'*a'.repeat(30)}b`, 'a'.repeat(200))).toBe(false);
    expect(matches(`${'**/a/'.repeat(20)}b`, `${'a/'.repeat(60)}c`)).toBe(false);
  });

  it('glob finds a path given literally even when it holds glob characters, and prunes other directories', () => {
    const filter = globFilter('app/[id]/page.tsx');
    expect(filter.includeFile('app/[id]/page.tsx')).toBe(true);
    expect(filter.includeFile('app/i/page.tsx')).toBe(true);
    expect(filter.enterDirectory('app')).toBe(true);
    expect(filter.enterDirectory('app/[id]')).toBe(true);
    expect(filter.enterDirectory('lib')).toBe(false);
    expect(globFilter('app/(group)/page.tsx').enterDirectory('app/(group)/deeper')).toBe(false);
    expect(globFilter('*.ts').enterDirectory('src')).toBe(false);
    expect(globFilter('**/*.ts').enterDirectory('src/a')).toBe(true);
    expect(globFilter('src/*/x.ts').enterDirectory('src/a')).toBe(true);
    expect(globFilter('src/*/x.ts').enterDirectory('lib')).toBe(false);
    expect(globFilter('{src,lib/deep}/*.ts').enterDirectory('lib')).toBe(true);
    expect(grepGlobFilter('*.ts').enterDirectory('src/a')).toBe(true);
    expect(grepGlobFilter('/src/*.ts').enterDirectory('src/a')).toBe(false);
  });

  it('a trailing ** reaches every depth below its base, and only there', () => {
    const inside = globFilter('src/**');
    expect(inside.enterDirectory('src')).toBe(true);
    expect(inside.enterDirectory('src/a')).toBe(true);
    expect(inside.enterDirectory('src/a/b')).toBe(true);
    expect(inside.enterDirectory('lib')).toBe(false);
    expect(inside.includeFile('src/a/b/c.ts')).toBe(true);
    const everything = globFilter('**');
    expect(everything.enterDirectory('a/b/c')).toBe(true);
    expect(everything.includeFile('a/b/c/d.txt')).toBe(true);
    expect(globFilter('{src,lib}/**').enterDirectory('lib/deep/er')).toBe(true);
    expect(globFilter('src/**/x.ts').enterDirectory('src/a/b')).toBe(true);
  });
});

/** One ripgrep override (`-g`): whitelist, ignore or none, as ignore's overrides.rs reports it. */
function override(glob: string, path: string, isDirectory: boolean): 'whitelist' | 'ignore' | 'none' {
  const filter = grepGlobFilter(glob);
  const excluding = glob.startsWith('!');
  if (isDirectory) return filter.enterDirectory(path) ? 'none' : 'ignore';
  if (excluding) return filter.includeFile(path) ? 'none' : 'ignore';
  return filter.includeFile(path) ? 'whitelist' : 'ignore';
}

describe("grep's glob as ripgrep's -g: gitignore syntax, the match inverted", () => {
  // ripgrep crates/ignore/src/gitignore.rs ig1–ig44: a gitignore line that ignores a path is a -g glob that keeps it.
  const kept: [string, string, boolean?][] = [
    ['months', 'months'],
    ['*.lock', 'Cargo.lock'],
    ['*.rs', 'src/main.rs'],
    ['src/*.rs', 'src/main.rs'],
    ['/*.c', 'cat-file.c'],
    ['/src/*.rs', 'src/main.rs'],
    ['**/foo', 'foo'],
    ['**/foo', 'src/foo'],
    ['**/foo/**', 'src/foo/bar'],
    ['**/foo/**', 'wat/src/foo/bar/baz'],
    ['**/foo/bar', 'foo/bar'],
    ['**/foo/bar', 'src/foo/bar'],
    ['abc/**', 'abc/x'],
    ['abc/**', 'abc/x/y'],
    ['abc/**', 'abc/x/y/z'],
    ['a/**/b', 'a/b'],
    ['a/**/b', 'a/x/b'],
    ['a/**/b', 'a/x/y/b'],
    ['\\!xy', '!xy'],
    ['\\#foo', '#foo'],
    ['target', 'grep/target'],
    ['Cargo.lock', 'tabwriter-bin/Cargo.lock'],
    ['path1/*', 'path1/foo'],
    ['.a/b', '.a/b'],
    ['\\[', '['],
    ['\\?', '?'],
    ['\\*', '*'],
    ['\\a', 'a'],
    ['s*.rs', 'sfoo.rs'],
    ['**', 'foo.rs'],
    ['**/**/*', 'a/foo.rs'],
    ['*.html', 'foo.html'],
  ];
  // ignot1–ignot19 and cs2–cs4: globs that do not match the path, so a -g glob leaves it out.
  const notKept: [string, string][] = [
    ['amonths', 'months'],
    ['monthsa', 'months'],
    ['/src/*.rs', 'src/grep/src/main.rs'],
    ['/*.c', 'mozilla-sha1/sha1.c'],
    ['foo/', 'foo'],
    ['**/foo/**', 'wat/src/afoo/bar/baz'],
    ['**/foo/**', 'wat/src/fooa/bar/baz'],
    ['**/foo/bar', 'foo/src/bar'],
    ['src/*.rs', 'src/grep/src/main.rs'],
    ['path1/*', 'path2/path1/foo'],
    ['s*.rs', 'src/foo.rs'],
    ['*.html', 'foo.HTML'],
    ['*.html', 'foo.htm'],
    ['*.html', 'foo.HTM'],
  ];

  it.each(kept)('-g %j keeps %j', (glob, path) => {
    expect(override(glob, path, false)).toBe('whitelist');
    expect(override(`!${glob}`, path, false)).toBe('ignore');
  });

  it.each(notKept)('-g %j leaves out %j; -g !%j keeps it', (glob, path) => {
    expect(override(glob, path, false)).toBe('ignore');
    expect(override(`!${glob}`, path, false)).toBe('none');
  });

  it("ripgrep's override cases: simple, only_ignores, gitignore, allow_directories", () => {
    expect(override('*.foo', 'a.foo', false)).toBe('whitelist');
    expect(override('*.foo', 'a.rs', false)).toBe('ignore');
    expect(override('*.foo', 'a.rs', true)).toBe('none');
    expect(override('!*.bar', 'a.bar', false)).toBe('ignore');
    expect(override('!*.bar', 'a.bar', true)).toBe('ignore');
    expect(override('!*.bar', 'a.rs', false)).toBe('none');
    expect(override('/foo', 'foo', false)).toBe('whitelist');
    expect(override('/foo', 'wat/foo', false)).toBe('ignore');
    expect(override('bar/*.rs', 'bar/lib.rs', false)).toBe('whitelist');
    expect(override('bar/*.rs', 'bar/wat/lib.rs', false)).toBe('ignore');
    expect(override('bar/*.rs', 'wat/bar/lib.rs', false)).toBe('ignore');
    expect(override('baz/**', 'baz', false)).toBe('ignore');
    expect(override('baz/**', 'baz/a/b', false)).toBe('whitelist');
    expect(override('*.rs', 'src/foo', true)).toBe('none');
    expect(override('!/bar', 'foo/bar', false)).toBe('none');
  });

  it('r405: !/foo/** leaves out foo/ at the searched path only; r2990: !asdf/ is the folder asdf, not asdf.', () => {
    expect(override('!/foo/**', 'foo/bar', true)).toBe('ignore');
    expect(override('!/foo/**', 'foo/bar/file1.txt', false)).toBe('ignore');
    expect(override('!/foo/**', 'bar/foo', true)).toBe('none');
    expect(override('!/foo/**', 'bar/foo/file2.txt', false)).toBe('none');
    expect(override('!asdf/', 'asdf', true)).toBe('ignore');
    expect(override('!asdf/', 'asdf.', true)).toBe('none');
    expect(override('!asdf/', 'asdf', false)).toBe('none');
    expect(override('!asdf./', 'asdf.', true)).toBe('ignore');
    expect(override('!asdf./', 'asdf', true)).toBe('none');
  });

  it('an unclosed class is invalid_input (ripgrep r3127), and so is a glob that names nothing', () => {
    expect(() => grepGlobFilter('[abc')).toThrow(expect.objectContaining({ kind: 'invalid_input' }) as Error);
    for (const glob of ['!', '/', '  ']) expect(() => grepGlobFilter(glob)).toThrow(expect.objectContaining({ kind: 'invalid_input' }) as Error);
  });
});

