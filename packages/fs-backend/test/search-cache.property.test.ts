import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { PathGuard } from '@openwork/path-guard';
import type { TreeSearchRequest } from '@openwork/tree-search';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../src/node/index.ts';

// docs/decisions/0036: whatever a session's searches keep, a file created,
// removed, renamed or rewritten in place (at the same size, its mtime set
// back) between two calls, and an ignore file changed, is seen by the next
// call: its result equals a fresh scan's, by a file system that keeps
// nothing, call after call.

const DIRECTORIES = ['', 'a', 'a/deep', 'b'];
const WORDS = ['alpha', 'Bravo', 'charlie', 'DELTA', 'echo', 'foxtrot', 'golf', 'hotel'];
/** Kept only when its ctime is this old when read: enough for the kernel's coarse clock, small enough that the test's files age into the cache. */
const RACY_MS = 20;

const text = fc.array(fc.constantFrom(...WORDS, ' ', '\n', '\u0000'), { minLength: 1, maxLength: 14 }).map((parts) => parts.join(''));
const fileName = fc.tuple(fc.constantFrom(...DIRECTORIES), fc.integer({ min: 0, max: 5 })).map(([directory, index]) => join(directory, `f${index}.txt`));

type Edit =
  | { readonly kind: 'create'; readonly path: string; readonly text: string }
  | { readonly kind: 'remove'; readonly path: string }
  | { readonly kind: 'rewrite'; readonly path: string; readonly text: string }
  | { readonly kind: 'rename'; readonly path: string; readonly to: string }
  | { readonly kind: 'ignore'; readonly directory: string; readonly text: string };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), path: fileName, text }),
  fc.record({ kind: fc.constant('remove' as const), path: fileName }),
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('rewrite' as const), path: fileName, text }) },
  fc.record({ kind: fc.constant('rename' as const), path: fileName, to: fileName }),
  fc.record({ kind: fc.constant('ignore' as const), directory: fc.constantFrom('', 'a'), text: fc.constantFrom('', 'f1.txt\n', 'deep/\n', '*.txt\n!f2.txt\n', 'b\n') }),
);

const query = fc.record({
  source: fc.constantFrom('alpha', 'Bravo', 'bravo', 'DELTA', 'echo golf', 'hotel\nalpha', 'ch.rlie', 'fox[a-z]+t', 'golf|hotel', 'zulu', 'ta'),
  caseInsensitive: fc.boolean(),
  literal: fc.boolean(),
  mode: fc.constantFrom('files' as const, 'count' as const, 'content' as const),
  maxResults: fc.constantFrom(3, 100, 20_000),
});

async function apply(root: string, change: Edit): Promise<void> {
  const at = (path: string) => join(root, path);
  try {
    switch (change.kind) {
      case 'create':
        await writeFile(at(change.path), change.text);
        return;
      case 'remove':
        await rm(at(change.path), { force: true });
        return;
      case 'rewrite': {
        // The same size, the same mtime to the nanosecond: only the ctime (and the inode's content) tells.
        const before = await stat(at(change.path), { bigint: true });
        const old = await readFile(at(change.path));
        const next = Buffer.from(change.text.repeat(Math.ceil(old.length / change.text.length))).subarray(0, old.length);
        await writeFile(at(change.path), next);
        const seconds = before.mtimeNs / 1_000_000_000n;
        const nanoseconds = String(before.mtimeNs % 1_000_000_000n).padStart(9, '0');
        execFileSync('touch', ['-m', '-d', `@${seconds}.${nanoseconds}`, at(change.path)]);
        return;
      }
      case 'rename':
        await rename(at(change.path), at(change.to));
        return;
      case 'ignore':
        await writeFile(at(join(change.directory, '.gitignore')), change.text);
        return;
    }
  } catch (error) {
    // An edit of a file that is not there (any more) is no edit.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

async function search(filesystem: NodeFileSystem, root: string, request: TreeSearchRequest) {
  const guard = await PathGuard.create({ workingDirectory: root, probe: filesystem });
  const target = await guard.resolvePath('.', 'read', 'must_exist');
  return filesystem.searchTree(target, request, { guard });
}

describe('a session that keeps file summaries answers as a fresh scan does (docs/decisions/0036)', () => {
  let base: string;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'openwork-search-cache-'));
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  // Both last miles (docs/decisions/0009): names under /proc/self/fd, and lstat-checked paths.
  it.each(['auto', 'never'] as const)('after random creates, removes, same-size rewrites with the mtime set back, renames and ignore-file changes (directoryHandles: %s)', { timeout: 60_000 }, async (directoryHandles) => {
    let run = 0;
    let kept = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fileName, text), { minLength: 4, maxLength: 24 }),
        fc.array(fc.tuple(fc.array(edit, { maxLength: 4 }), query), { minLength: 3, maxLength: 6 }),
        async (files, steps) => {
          run += 1;
          const root = join(base, `${directoryHandles}-${run}`);
          for (const directory of DIRECTORIES) await mkdir(join(root, directory), { recursive: true });
          for (const [path, content] of files) await writeFile(join(root, path), content);
          const cached = new NodeFileSystem({ readWorkers: 2, directoryHandles, searchCache: { maxBytes: 8 << 20, racyMs: RACY_MS } });
          const fresh = new NodeFileSystem({ readWorkers: 1, searchCache: { maxBytes: 0 } });
          try {
            for (const [edits, asked] of steps) {
              for (const change of edits) {
                await mkdir(dirname(join(root, 'kind' in change && change.kind === 'ignore' ? change.directory : change.path)), { recursive: true });
                await apply(root, change);
              }
              // Long enough for what the edits left behind to be kept by the next search, so the cache is what answers.
              await sleep(RACY_MS + 5);
              const request: TreeSearchRequest = {
                mode: asked.mode,
                pattern: { source: asked.source, caseInsensitive: asked.caseInsensitive, literal: asked.literal, multiline: asked.source.includes('\n') },
                maxResults: asked.maxResults,
                maxLineChars: 200,
                maxFileBytes: 1 << 20,
                binarySniffBytes: 64,
                ignore: { ignoreCase: false, rules: [] },
              };
              // The cached side answers twice, so that a summary made by the first is used by the second.
              const first = await search(cached, root, request);
              const again = await search(cached, root, request);
              const expected = await search(fresh, root, request);
              expect(first).toEqual(expected);
              expect(again).toEqual(expected);
            }
            kept = Math.max(kept, cached.searchCacheBytes);
          } finally {
            await Promise.all([cached.close(), fresh.close()]);
          }
        },
      ),
      { numRuns: 8 },
    );
    // The cache held something: the property was checked against kept summaries, not only against scans.
    expect(kept).toBeGreaterThan(0);
  });
});
