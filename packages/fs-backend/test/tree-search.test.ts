import { mkdir, mkdtemp, readdir, readlink, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PathGuard } from '@openwork/path-guard';
import { CallAborted, isToolError } from '@openwork/tool-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TreeSearchRequest, TreeSearchResult } from '@openwork/tree-search';
import type { AsyncFileSystem } from '../src/index.ts';
import { MemoryFileSystem } from '../src/memory/index.ts';
import { NodeFileSystem } from '../src/node/index.ts';
import { compareUtf8 } from '@openwork/tree-search';

// The walk runs in the workers, which give work to one
// another; the output is the same at any number of workers, and on the
// memory file system, which walks in process.

/** A file in UTF-16 with a byte-order mark: searched as the text it holds (a NUL in that text is binary). */
function utf16(text: string, order: 'le' | 'be'): Buffer {
  const little = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  return order === 'le' ? little : little.swap16();
}
const UTF16_TEXT: ReadonlyMap<string, string> = new Map([
  ['z/utf16le.txt', 'a needle in UTF-16LE\n'],
  ['z/utf16be.txt', 'a needle in UTF-16BE\n'],
  ['z/utf16nul.txt', 'a needle\u0000 in UTF-16 with a NUL\n'],
]);

/** The generated tree: relative path → content. About 20 000 files. */
function generatedTree(): Map<string, string | Buffer> {
  const files = new Map<string, string | Buffer>();
  let index = 0;
  const content = () => {
    index += 1;
    if (index % 97 === 0) return Buffer.from(`needle\u0000binary ${index}\n`);
    const lines = [`line one of ${index}`, index % 3 === 0 ? `a needle here ${index}` : 'hay', index % 5 === 0 ? 'NEEDLE shouting' : 'more hay', 'the end'];
    return `${lines.join('\n')}\n`;
  };
  // One huge flat directory, which a single walker would take alone.
  for (let file = 0; file < 6000; file += 1) files.set(`big/f${String(file).padStart(4, '0')}.txt`, content());
  for (let top = 0; top < 40; top += 1) {
    for (let sub = 0; sub < 10; sub += 1) {
      for (let file = 0; file < 35; file += 1) files.set(`d${top}/s${sub}/f${file}.txt`, content());
    }
  }
  files.set('.gitignore', '*.log\nignored/\n');
  files.set('d3/.gitignore', '!keep.log\n');
  files.set('d3/keep.log', 'a needle in a kept log\n');
  for (let file = 0; file < 30; file += 1) files.set(`d${file}/s1/x${file}.log`, 'a needle in an ignored log\n');
  for (let file = 0; file < 50; file += 1) files.set(`ignored/f${file}.txt`, 'a needle nobody sees\n');
  files.set('.git/config', '[core]\n\tbare = false\n');
  files.set('z/ä.txt', 'needle ä\n');
  files.set('z/𝒳.txt', 'needle 𝒳\n');
  files.set('z/\uE000.txt', 'needle private use\n');
  for (const [path, text] of UTF16_TEXT) files.set(path, utf16(text, path.includes('be') ? 'be' : 'le'));
  return files;
}

const SYMLINKS: readonly (readonly [string, string])[] = [
  ['d0/link.txt', '../big/f0002.txt'],
  ['d0/escape.txt', '/etc/hostname'],
  ['d1/linked-dir', '../d2'],
];

const requests: readonly TreeSearchRequest[] = [
  { mode: 'paths', filter: { syntax: 'glob', pattern: '**/*.txt' }, maxResults: 2000, maxLineChars: 2000, maxFileBytes: 4 << 20, binarySniffBytes: 0 },
  { mode: 'paths', filter: { syntax: 'glob', pattern: 'd1*/**' }, maxResults: 50, maxLineChars: 2000, maxFileBytes: 4 << 20, binarySniffBytes: 0 },
  { mode: 'files', pattern: { source: 'needle', caseInsensitive: false }, maxResults: 100, maxLineChars: 2000, maxFileBytes: 4 << 20, binarySniffBytes: 8192 },
  { mode: 'files', pattern: { source: 'needle', caseInsensitive: false }, maxResults: 1_000_000, maxLineChars: 2000, maxFileBytes: 4 << 20, binarySniffBytes: 8192 },
  { mode: 'count', pattern: { source: 'needle', caseInsensitive: true }, maxResults: 3000, maxLineChars: 2000, maxFileBytes: 4 << 20, binarySniffBytes: 8192 },
  { mode: 'content', pattern: { source: 'ne+dle here \\d+', caseInsensitive: false }, context: 1, maxResults: 700, maxResultBytes: 64 * 1024, maxLineChars: 10, maxFileBytes: 4 << 20, binarySniffBytes: 8192 },
  { mode: 'files', pattern: { source: 'needle', caseInsensitive: false }, filter: { syntax: 'override', pattern: '!big/' }, maxResults: 10, maxLineChars: 2000, maxFileBytes: 4 << 20, binarySniffBytes: 8192 },
];

const ignore = { ignoreCase: false, rules: [] };

describe('a tree search of 20 000 files gives the same output at 1, 2 and 4 workers, and in memory', () => {
  let base: string;
  let root: string;
  const tree = generatedTree();

  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'tree-search-')));
    root = join(base, 'ws');
    const directories = new Set<string>();
    for (const path of tree.keys()) directories.add(join(root, path, '..'));
    for (const directory of directories) await mkdir(directory, { recursive: true });
    const entries = [...tree];
    for (let start = 0; start < entries.length; start += 256) {
      await Promise.all(entries.slice(start, start + 256).map(([path, content]) => writeFile(join(root, path), content)));
    }
    for (const [path, target] of SYMLINKS) await symlink(target, join(root, path));
  }, 120_000);

  afterAll(() => rm(base, { recursive: true, force: true }));

  async function searchAll(fs: AsyncFileSystem, workingDirectory: string): Promise<TreeSearchResult[]> {
    const guard = await PathGuard.create({ workingDirectory, probe: fs });
    const searched = await guard.resolvePath('.', 'read', 'must_exist');
    const results: TreeSearchResult[] = [];
    for (const request of requests) results.push(await fs.searchTree(searched, { ...request, ignore }, { guard }));
    return results;
  }

  it('the same hits, truncation and counts of what was left out', { timeout: 240_000 }, async () => {
    const outputs: string[] = [];
    for (const readWorkers of [1, 2, 4]) {
      const fs = new NodeFileSystem({ readWorkers });
      try {
        outputs.push(JSON.stringify(await searchAll(fs, root)));
      } finally {
        await fs.close();
      }
    }
    const memory = new MemoryFileSystem({ directories: ['/home/user/ws'] });
    for (const [path, content] of tree) memory.seedFile(`/home/user/ws/${path}`, content);
    for (const [path, target] of SYMLINKS) memory.seedSymlink(`/home/user/ws/${path}`, target);
    outputs.push(JSON.stringify(await searchAll(memory, '/home/user/ws')));
    expect(outputs[1]).toBe(outputs[0]);
    expect(outputs[2]).toBe(outputs[0]);
    expect(outputs[3]).toBe(outputs[0]);

    // And it is the right output: every file with the needle, by a walk of the generated tree, in byte order.
    const all = JSON.parse(outputs[0] as string) as TreeSearchResult[];
    const withNeedle = [...tree]
      .filter(([path, content]) => {
        if (path.startsWith('.git/') || path.startsWith('ignored/') || (path.endsWith('.log') && path !== 'd3/keep.log')) return false;
        const text = UTF16_TEXT.get(path) ?? content;
        return typeof text === 'string' && text.includes('needle') && !text.includes('\u0000');
      })
      .map(([path]) => path);
    withNeedle.push('d0/link.txt');
    expect(all[3]?.hits.map((hit) => hit.path)).toEqual(withNeedle.sort(compareUtf8));
    expect(all[3]?.hits.map((hit) => hit.path)).toEqual(expect.arrayContaining(['z/utf16be.txt', 'z/utf16le.txt']));
    const binary = [...tree].filter(([path, content]) => Buffer.isBuffer(content) && (UTF16_TEXT.get(path)?.includes('\u0000') ?? true));
    expect(all[3]?.skipped).toEqual({ binary: binary.length, tooLarge: 0, unreadable: 0 });
    expect(all[3]?.ignored).toEqual({ files: 30, directories: 1, sources: ['.gitignore'] });
    expect(all[2]?.truncated).toBe(true);
    expect(all[2]?.hits).toEqual(all[3]?.hits.slice(0, 100));
    expect(all[6]?.hits.every((hit) => !hit.path.startsWith('big/'))).toBe(true);
    const content = all[5];
    expect(content?.truncated).toBe(true);
    expect(content?.hits[0]?.match).toMatchObject({ text: 'a needle h', fullLength: 'a needle here 3'.length });
  });
});

describe('cancelling a tree search', () => {
  let base: string;

  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'tree-cancel-')));
    for (let directory = 0; directory < 60; directory += 1) {
      await mkdir(join(base, `d${directory}`));
      await Promise.all(Array.from({ length: 100 }, (_, file) => writeFile(join(base, `d${directory}`, `f${file}.txt`), 'x\n'.repeat(200))));
    }
  }, 60_000);

  afterAll(() => rm(base, { recursive: true, force: true }));

  it('in the middle of a large walk resolves promptly, with no worker left busy and no descriptor left open', { timeout: 60_000 }, async () => {
    const fs = new NodeFileSystem({ readWorkers: 2 });
    try {
      const guard = await PathGuard.create({ workingDirectory: base, probe: fs });
      const searched = await guard.resolvePath('.', 'read', 'must_exist');
      const controller = new AbortController();
      let progressed = 0;
      const outcome = await fs
        .searchTree(searched, { mode: 'content', pattern: { source: 'x', caseInsensitive: false }, maxResults: 1_000_000, maxLineChars: 100, maxFileBytes: 1 << 20, binarySniffBytes: 0 }, {
          guard,
          signal: controller.signal,
          onProgress: (progress) => {
            progressed = progress.files;
            if (progress.files > 0) controller.abort(new CallAborted('cancelled'));
          },
        })
        .then(
          () => 'finished',
          (error: unknown) => (isToolError(error) ? error.kind : String(error)),
        );
      expect(outcome).toBe('cancelled');
      expect(progressed).toBeLessThan(6000);
      // The cancel settled only once every worker stopped its task (or had its thread ended): none is still busy.
      expect(fs.busyWorkers).toBe(0);
      if (process.platform === 'linux') {
        const targets = await Promise.all((await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
        expect(targets.filter((target) => target.startsWith(base))).toEqual([]);
      }
      // The pool still works after a cancel.
      const again = await fs.searchTree(searched, { mode: 'paths', maxResults: 3, maxLineChars: 100, maxFileBytes: 1 << 20, binarySniffBytes: 0 }, { guard });
      expect(again.hits.map((hit) => hit.path)).toEqual(['d0/f0.txt', 'd0/f1.txt', 'd0/f10.txt']);
    } finally {
      await fs.close();
    }
  });
});

describe.each([
  ['node', () => new NodeFileSystem()],
  ['memory', () => new MemoryFileSystem()],
] as const)('a tree search on the %s file system refuses as the contract says', (_name, make) => {
  it('a pattern or filter that does not compile is invalid_input, a walk root gone since the check is not_found; only those reject', async () => {
    const fs = make();
    const base = fs instanceof MemoryFileSystem ? '/home/user/ws' : await realpath(await mkdtemp(join(tmpdir(), 'tree-refuse-')));
    try {
      if (fs instanceof MemoryFileSystem) fs.seedDirectory(`${base}/gone`);
      else await mkdir(join(base, 'gone'));
      const guard = await PathGuard.create({ workingDirectory: base, probe: fs });
      const searched = await guard.resolvePath('.', 'read', 'must_exist');
      const gone = await guard.resolvePath('gone', 'read', 'must_exist');
      const request = { mode: 'files', pattern: { source: 'x', caseInsensitive: false }, maxResults: 10, maxLineChars: 100, maxFileBytes: 1024, binarySniffBytes: 0 } as const;
      const kindOf = (promise: Promise<unknown>) => promise.then(() => 'ok', (error: unknown) => (isToolError(error) ? error.kind : String(error)));
      expect(await kindOf(fs.searchTree(searched, { ...request, pattern: { source: 'foo(', caseInsensitive: false } }, { guard }))).toBe('invalid_input');
      expect(await kindOf(fs.searchTree(searched, { ...request, filter: { syntax: 'glob', pattern: '[abc' } }, { guard }))).toBe('invalid_input');
      if (fs instanceof MemoryFileSystem) fs.removeEntry(`${base}/gone`);
      else await rm(join(base, 'gone'), { recursive: true });
      expect(await kindOf(fs.searchTree(gone, request, { guard }))).toBe('not_found');
      expect(await kindOf(fs.searchTree(searched, request, { guard }))).toBe('ok');
    } finally {
      if (fs instanceof NodeFileSystem) {
        await fs.close();
        await rm(base, { recursive: true, force: true });
      }
    }
  });
});
