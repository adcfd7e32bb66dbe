import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCheckedPath } from '../src/backend.ts';
import { PathGuard } from '../src/index.ts';
import { nodeProbe } from './node-probe.ts';

const names = ['a', 'b', 'c', 'ln'];
const segment = fc.constantFrom(...names, '..', '.');
const entry = fc.record({
  path: fc.array(fc.constantFrom(...names), { minLength: 1, maxLength: 3 }),
  kind: fc.constantFrom('dir', 'file', 'link'),
  target: fc.oneof(fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/')), fc.constantFrom('/etc', '/tmp', '../../outside', '/proc/self/root/etc')),
});

async function realLocation(path: string): Promise<string> {
  let current = path;
  const rest: string[] = [];
  for (;;) {
    try {
      return join(await realpath(current), ...rest.reverse());
    } catch {
      rest.push(current.slice(dirname(current).length + 1));
      current = dirname(current);
    }
  }
}

const inside = (path: string, root: string) => path === root || !relative(root, path).startsWith('..');

describe('property: resolvePath never returns a path whose real location is outside the roots', () => {
  it('holds for random trees of dirs, files and symlinks', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 8 }), fc.array(fc.array(segment, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 }), async (entries, inputs) => {
        const base = await realpath(await mkdtemp(join(tmpdir(), 'guard-prop-')));
        try {
          const ws = join(base, 'ws');
          const protectedRoot = join(ws, 'c');
          await mkdir(ws);
          await mkdir(join(base, 'outside'));
          await mkdir(protectedRoot);
          for (const item of entries) {
            const target = join(ws, ...item.path);
            await mkdir(dirname(target), { recursive: true }).catch(() => undefined);
            if (item.kind === 'dir') await mkdir(target).catch(() => undefined);
            else if (item.kind === 'file') await writeFile(target, 'x').catch(() => undefined);
            else await symlink(item.target, target).catch(() => undefined);
          }
          const paths = await PathGuard.create({ workingDirectory: ws, probe: nodeProbe, protectedRoots: [protectedRoot] });
          for (const parts of inputs) {
            for (const access of ['read', 'write'] as const) {
              const checked = await paths.resolvePath(parts.join('/'), access, 'may_create').catch(() => undefined);
              if (!checked) continue;
              const real = await realLocation(readCheckedPath(checked).realPath);
              expect(inside(real, ws)).toBe(true);
              if (access === 'write') expect(inside(real, protectedRoot)).toBe(false);
            }
          }
        } finally {
          await rm(base, { recursive: true, force: true });
        }
      }),
      { numRuns: 200 },
    );
  });
});
