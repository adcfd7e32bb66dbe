import type { ToolResult } from '@openwork/tool-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GlobData } from '../src/index.ts';
import { callTool, memoryWorld, nodeWorld, type SearchWorld } from './search-world.ts';

// Ripgrep's ignore rules, all of them, with its
// precedence; and a result emptied by them says so.

function files(result: ToolResult): string[] {
  expect(result.status, result.output).toBe('ok');
  return (result.data as { files: string[] }).files;
}

function paths(result: ToolResult): readonly string[] {
  expect(result.status, result.output).toBe('ok');
  return (result.data as GlobData).paths;
}

describe.each([
  ['node', nodeWorld],
  ['memory', memoryWorld],
])('ignore sources on the %s file system', (_name, makeWorld) => {
  let world: SearchWorld;
  beforeEach(async () => {
    world = await makeWorld();
  });
  afterEach(() => world.cleanup());

  it('.rgignore over .ignore over .gitignore, whatever the depth: a .rgignore negation keeps what .gitignore ignores', async () => {
    await world.file('.gitignore', '*.gen.ts\nsecret/\n');
    await world.file('.rgignore', '!keep.gen.ts\n');
    await world.file('.ignore', '*.log\n');
    await world.file('sub/.gitignore', '!x.log\n');
    for (const path of ['keep.gen.ts', 'other.gen.ts', 'secret/a.ts', 'sub/x.log', 'plain.ts']) await world.file(path, 'needle\n');
    const session = await world.session();
    // sub/.gitignore re-includes x.log, but .ignore outranks every .gitignore, nearer or not (ripgrep's precedence).
    expect(files(await callTool(session, 'grep', { pattern: 'needle' }))).toEqual(['keep.gen.ts', 'plain.ts']);
    await world.file('.rgignore', '!keep.gen.ts\n!secret/\n');
    expect(files(await callTool(session, 'grep', { pattern: 'needle' }))).toEqual(['keep.gen.ts', 'plain.ts', 'secret/a.ts']);
    expect(paths(await callTool(session, 'glob', { pattern: '**/*.ts' }))).toEqual(['keep.gen.ts', 'plain.ts', 'secret/a.ts']);
  });

  it(".git/info/exclude applies without a .gitignore, and a .gitignore negation outranks it", async () => {
    await world.file('.git/config', '[core]\n\tbare = false\n');
    await world.file('.git/info/exclude', 'notes.md\nscratch/\n');
    await world.file('notes.md', 'needle\n');
    await world.file('scratch/a.txt', 'needle\n');
    await world.file('src/a.txt', 'needle\n');
    const session = await world.session();
    expect(files(await callTool(session, 'grep', { pattern: 'needle' }))).toEqual(['src/a.txt']);
    expect(files(await callTool(session, 'grep', { pattern: 'needle', path: 'scratch' }))).toEqual(['scratch/a.txt']);
    await world.file('.gitignore', '!notes.md\n');
    expect(files(await callTool(session, 'grep', { pattern: 'needle' }))).toEqual(['notes.md', 'src/a.txt']);
    expect(files(await callTool(session, 'grep', { pattern: 'needle', includeIgnored: true }))).toEqual(['notes.md', 'scratch/a.txt', 'src/a.txt']);
  });

  it('the global excludes file: $XDG_CONFIG_HOME/git/ignore, ~/.config/git/ignore, or core.excludesFile, from a fake HOME', async () => {
    for (const path of ['a.swp', 'b.bak', 'c.orig', 'keep.txt']) await world.file(path, 'needle\n');
    const home = `${world.outside}/home`;
    await world.file('../outside/home/.config/git/ignore', '*.swp\n');
    await world.file('../outside/xdg/git/ignore', '*.bak\n');
    expect(files(await callTool(await world.session({ environment: { HOME: home } }), 'grep', { pattern: 'needle' }))).toEqual(['b.bak', 'c.orig', 'keep.txt']);
    expect(files(await callTool(await world.session({ environment: { HOME: home, XDG_CONFIG_HOME: `${world.outside}/xdg` } }), 'grep', { pattern: 'needle' }))).toEqual([
      'a.swp',
      'c.orig',
      'keep.txt',
    ]);
    await world.file('../outside/home/.gitconfig', '[core]\n\texcludesFile = ~/my-ignore\n');
    await world.file('../outside/home/my-ignore', '*.orig\n');
    const named = await world.session({ environment: { HOME: home } });
    expect(files(await callTool(named, 'grep', { pattern: 'needle' }))).toEqual(['a.swp', 'b.bak', 'keep.txt']);
    expect(paths(await callTool(named, 'glob', { pattern: '*' }))).toEqual(['a.swp', 'b.bak', 'keep.txt']);
    // A repository's own core.excludesFile comes first; a .gitignore negation outranks the global rules.
    await world.file('.git/config', '[core]\n\texcludesFile = ../outside/home/.config/git/ignore\n');
    await world.file('.gitignore', '!a.swp\n');
    expect(files(await callTool(named, 'grep', { pattern: 'needle' }))).toEqual(['a.swp', 'b.bak', 'c.orig', 'keep.txt']);
  });

  it('a repository nested in the tree keeps its own rules: not the outer .gitignore, its own info/exclude', async () => {
    await world.file('.gitignore', '*.tmp\n');
    await world.file('a.tmp', 'needle\n');
    await world.file('nested/.git/config', '[core]\n');
    await world.file('nested/.git/info/exclude', 'local.txt\n');
    await world.file('nested/b.tmp', 'needle\n');
    await world.file('nested/local.txt', 'needle\n');
    await world.file('nested/.ignore', 'hidden.txt\n');
    await world.file('nested/hidden.txt', 'needle\n');
    expect(files(await callTool(await world.session(), 'grep', { pattern: 'needle' }))).toEqual(['nested/b.tmp']);
  });

  it('an empty result says how many entries the ignore rules left out, and which; none said when none were', async () => {
    await world.file('.gitignore', 'dist/\n*.min.js\n');
    await world.file('.ignore', 'fixtures/\n');
    await world.file('dist/app.js', 'needle\n');
    await world.file('a.min.js', 'needle\n');
    await world.file('b.min.js', 'needle\n');
    await world.file('fixtures/x.txt', 'needle\n');
    await world.file('src/a.ts', 'hay\n');
    const session = await world.session();
    const grep = await callTool(session, 'grep', { pattern: 'needle' });
    expect(grep.output).toBe(
      '[no matches for "needle" in .; 2 files and 2 directories were skipped by ignore rules (.ignore, .gitignore); pass includeIgnored: true to search them too]',
    );
    expect(files(await callTool(session, 'grep', { pattern: 'needle', includeIgnored: true }))).toEqual(['a.min.js', 'b.min.js', 'dist/app.js', 'fixtures/x.txt']);
    const glob = await callTool(session, 'glob', { pattern: '**/*.js' });
    expect(glob.output).toBe(
      '[no files match "**/*.js" under .; 2 files and 2 directories were skipped by ignore rules (.ignore, .gitignore); pass includeIgnored: true to list them too]',
    );
    expect((await callTool(session, 'grep', { pattern: 'nothing-anywhere', path: 'src' })).output).toBe('[no matches for "nothing-anywhere" in src]');
    // A result that is not empty carries no such note.
    expect((await callTool(session, 'grep', { pattern: 'hay' })).output).toBe('src/a.ts');
  });
});
