import { mkdir, mkdtemp, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCheckedPath } from '../src/backend.ts';
import { CheckedPath, PathGuard, type PathAccess, type PathIntent } from '../src/index.ts';
import { nodeProbe } from './node-probe.ts';

let base: string;
let ws: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'guard-')));
  ws = join(base, 'ws');
  outside = join(base, 'outside');
  await mkdir(join(ws, 'src'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(ws, 'a.txt'), 'a');
  await writeFile(join(outside, 'secret.txt'), 'secret');
});
afterEach(() => rm(base, { recursive: true, force: true }));

const guard = (extra: { readOnlyRoots?: string[]; protectedRoots?: string[]; writableRoots?: string[] } = {}) =>
  PathGuard.create({ workingDirectory: ws, probe: nodeProbe, ...extra });

async function kindOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return (error as { kind?: string }).kind ?? String(error);
  }
}

async function check(input: string, access: PathAccess = 'read', intent: PathIntent = 'must_exist', extra = {}) {
  return kindOf((await guard(extra)).resolvePath(input, access, intent));
}

describe('docs/design.md §11 path safety', () => {
  it('a symlink pointing outside the workspace is refused: file and directory links, read and write', async () => {
    await symlink(join(outside, 'secret.txt'), join(ws, 'file-link'));
    await symlink(outside, join(ws, 'dir-link'));
    expect(await check('file-link')).toBe('outside_root');
    expect(await check('file-link', 'write', 'may_create')).toBe('outside_root');
    expect(await check('dir-link/secret.txt')).toBe('outside_root');
    expect(await check('dir-link/new.txt', 'write', 'may_create')).toBe('outside_root');
  });

  it('when creating a file, a parent directory out of bounds is refused: a new file under an outside parent, and a dangling link to outside', async () => {
    expect(await check('../outside/new.txt', 'write', 'may_create')).toBe('outside_root');
    expect(await check(join(outside, 'deep/new.txt'), 'write', 'may_create')).toBe('outside_root');
    await symlink(join(outside, 'not-yet.txt'), join(ws, 'dangling'));
    expect(await check('dangling', 'write', 'may_create')).toBe('outside_root');
  });

  it('a tool cannot get around CheckedPath to a raw path: no forging, no real path on the public surface', async () => {
    expect(() => new CheckedPath(Symbol('x'), { displayPath: '/etc/passwd', access: 'read', intent: 'must_exist', internals: {} as never })).toThrow(TypeError);
    expect(() => readCheckedPath({ displayPath: 'a' } as CheckedPath)).toThrow(TypeError);
    const checked = await (await guard()).resolvePath('a.txt', 'read', 'must_exist');
    expect(Object.keys(checked).sort()).toEqual(['access', 'displayPath', 'intent', 'kind']);
    expect(JSON.stringify(checked)).toBe('"a.txt"');
    expect(Object.isFrozen(checked)).toBe(true);
  });

  it('Allow cannot get around the path boundary: there is no option that lets a path outside through', async () => {
    const paths = await guard();
    const bypass = { signal: new AbortController().signal, allow: true, force: true } as never;
    expect(await kindOf(paths.resolvePath(join(outside, 'secret.txt'), 'read', 'must_exist', bypass))).toBe('outside_root');
  });
});

describe('resolvePath', () => {
  it('refuses a sibling that shares the prefix, and .. escapes', async () => {
    await mkdir(join(base, 'ws-evil'));
    await writeFile(join(base, 'ws-evil/x'), 'x');
    expect(await check(join(base, 'ws-evil/x'))).toBe('outside_root');
    expect(await check('../ws-evil/x')).toBe('outside_root');
    expect(await check('src/../../outside/secret.txt')).toBe('outside_root');
  });

  it('names loops, long names, bad input, missing files and files used as directories', async () => {
    await symlink(join(ws, 'b'), join(ws, 'a'));
    await symlink(join(ws, 'a'), join(ws, 'b'));
    expect(await check('a')).toBe('symlink_loop');
    expect(await check('x'.repeat(300))).toBe('name_too_long');
    for (const input of ['', '  ', 'a\0b', 'file:///etc/passwd', '~/x', '~']) expect(await check(input)).toBe('invalid_input');
    expect(await check('missing.txt')).toBe('not_found');
    expect(await check('missing/new.txt', 'write', 'may_create')).toBe('ok');
    expect(await check('a.txt/x', 'write', 'may_create')).toBe('not_a_directory');
  });

  it('a path that starts outside the roots is outside_root before the disk is looked at, even where a symlink there leads back in', async () => {
    // /proc lies outside every root: the walk stops there, so what /proc holds never shapes the answer.
    expect(await check(`/proc/self/root${ws}/a.txt`)).toBe('outside_root');
    expect(await check('/proc/self/root/etc/passwd')).toBe('outside_root');
  });

  it('read-only and protected roots are readable and never writable, also through a link', async () => {
    const skills = join(base, 'skills');
    await mkdir(skills);
    await writeFile(join(skills, 'SKILL.md'), 's');
    await symlink(join(skills, 'SKILL.md'), join(ws, 'skill-link'));
    for (const extra of [{ readOnlyRoots: [skills] }, { protectedRoots: [skills] }]) {
      expect(await check(join(skills, 'SKILL.md'), 'read', 'must_exist', extra)).toBe('ok');
      expect(await check(join(skills, 'SKILL.md'), 'write', 'may_create', extra)).toBe('protected');
      expect(await check('skill-link', 'write', 'may_create', extra)).toBe('protected');
      expect(await check(join(skills, 'new.md'), 'write', 'may_create', extra)).toBe('protected');
    }
    const nested = join(ws, 'vendor');
    await mkdir(nested);
    expect(await check('vendor/x', 'write', 'may_create', { readOnlyRoots: [nested] })).toBe('protected');
    expect(await check(join(outside, 'secret.txt'), 'write', 'must_exist', { writableRoots: [outside] })).toBe('ok');
  });

  it('shows paths relative inside the working directory and absolute elsewhere', async () => {
    await symlink(join(ws, 'a.txt'), join(ws, 'link.txt'));
    const paths = await guard({ readOnlyRoots: [outside] });
    expect((await paths.resolvePath('link.txt', 'read', 'must_exist')).displayPath).toBe('link.txt');
    expect((await paths.resolvePath(join(ws, 'src'), 'read', 'must_exist')).displayPath).toBe('src');
    expect((await paths.resolvePath('.', 'read', 'must_exist')).displayPath).toBe('.');
    expect((await paths.resolvePath(join(outside, 'secret.txt'), 'read', 'must_exist')).displayPath).toBe(join(outside, 'secret.txt'));
    expect(readCheckedPath(await paths.resolvePath('link.txt', 'read', 'must_exist')).realPath).toBe(join(ws, 'a.txt'));
  });

  it('child() makes entries of a checked directory and refuses links and odd names', async () => {
    const paths = await guard();
    const src = await paths.resolvePath('src', 'read', 'must_exist');
    expect(paths.child(src, 'x.ts', 'file').displayPath).toBe('src/x.ts');
    expect(() => paths.child(src, 'l', 'symlink')).toThrow(TypeError);
    for (const name of ['..', '.', 'a/b', '']) expect(() => paths.child(src, name, 'file')).toThrow(TypeError);
  });

  it('an aborted signal ends the resolution as cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await kindOf((await guard()).resolvePath('a.txt', 'read', 'must_exist', { signal: controller.signal }))).toBe('cancelled');
  });
});

describe('resolution starts at a root', () => {
  it('walks only the components below the canonical root (after one lstat of the root itself), and still follows links there and .. above it', async () => {
    const seen: string[] = [];
    const probe = { lstat: (path: string) => (seen.push(path), nodeProbe.lstat(path)), readlink: (path: string) => nodeProbe.readlink(path) };
    const paths = await PathGuard.create({ workingDirectory: ws, probe });
    seen.length = 0;
    await paths.resolvePath('src', 'read', 'must_exist');
    // The root is looked at to compare its identity, not walked from `/`.
    expect(seen).toEqual([ws, join(ws, 'src')]);
    await symlink(outside, join(ws, 'src', 'out'));
    expect(await kindOf(paths.resolvePath('src/out/secret.txt', 'read', 'must_exist'))).toBe('outside_root');
    expect(await kindOf(paths.resolvePath('../outside/secret.txt', 'read', 'must_exist'))).toBe('outside_root');
    expect(await kindOf(paths.resolvePath(`${ws}/../ws/a.txt`, 'read', 'must_exist'))).toBe('ok');
  });
});

describe('a root is the directory it was when the session started (docs/decisions/0009)', () => {
  it('the working directory renamed and replaced by a symlink between two resolutions is refused, also for a path that was fine before', async () => {
    await writeFile(join(outside, 'a.txt'), 'outside');
    const paths = await guard();
    expect(await kindOf(paths.resolvePath('a.txt', 'read', 'must_exist'))).toBe('ok');
    await rename(ws, join(base, 'ws-moved'));
    await symlink(outside, ws);
    let message = '';
    try {
      await paths.resolvePath('a.txt', 'read', 'must_exist');
    } catch (error) {
      message = `${(error as { kind?: string }).kind}: ${(error as Error).message}`;
    }
    expect(message).toMatch(/^stale: the working directory .* is not the directory this session started in \(it is a symlink now/);
    expect(await kindOf(paths.resolvePath('new.txt', 'write', 'may_create'))).toBe('stale');
    expect(await kindOf(paths.resolvePath(join(ws, 'src'), 'read', 'must_exist'))).toBe('stale');
  });

  it('a root removed, or replaced by another directory, is refused; one moved back is accepted again', async () => {
    const paths = await guard();
    await rename(ws, join(base, 'ws-moved'));
    expect(await kindOf(paths.resolvePath('a.txt', 'read', 'must_exist'))).toBe('stale');
    await mkdir(ws);
    await writeFile(join(ws, 'a.txt'), 'a stranger');
    expect(await kindOf(paths.resolvePath('a.txt', 'read', 'must_exist'))).toBe('stale');
    await rm(ws, { recursive: true });
    await rename(join(base, 'ws-moved'), ws);
    expect(await kindOf(paths.resolvePath('a.txt', 'read', 'must_exist'))).toBe('ok');
  });

  it('a read-only root replaced by a symlink is refused when a path reaches it from the working directory', async () => {
    const vendor = join(base, 'vendor');
    await mkdir(vendor);
    await writeFile(join(vendor, 'lib.txt'), 'lib');
    await writeFile(join(outside, 'lib.txt'), 'outside');
    await symlink(vendor, join(ws, 'vendor-link'));
    const paths = await guard({ readOnlyRoots: [vendor] });
    expect(await kindOf(paths.resolvePath('vendor-link/lib.txt', 'read', 'must_exist'))).toBe('ok');
    await rename(vendor, join(base, 'vendor-moved'));
    await symlink(outside, vendor);
    // The walk reaches /base/vendor through the link and follows it to outside: that is outside_root already.
    expect(await kindOf(paths.resolvePath('vendor-link/lib.txt', 'read', 'must_exist'))).toBe('outside_root');
    expect(await kindOf(paths.resolvePath(join(vendor, 'lib.txt'), 'read', 'must_exist'))).toBe('stale');
  });

  it('a CheckedPath carries the root identity and the directories seen on the way, for the backend to meet again', async () => {
    await mkdir(join(ws, 'src', 'deep'));
    await writeFile(join(ws, 'src', 'deep', 'x.ts'), 'x');
    const paths = await guard();
    const file = readCheckedPath(await paths.resolvePath('src/deep/x.ts', 'read', 'must_exist'));
    const identity = async (path: string) => {
      const stat = await nodeProbe.lstat(path);
      return { dev: stat?.dev, ino: stat?.ino };
    };
    expect({ dev: file.rootIdentity.dev, ino: file.rootIdentity.ino }).toEqual(await identity(ws));
    expect(file.directories).toEqual([
      { path: join(ws, 'src'), ...(await identity(join(ws, 'src'))) },
      { path: join(ws, 'src', 'deep'), ...(await identity(join(ws, 'src', 'deep'))) },
    ]);
    expect(Object.isFrozen(file.directories)).toBe(true);
    const created = readCheckedPath(await paths.resolvePath('src/new/dir/y.ts', 'write', 'may_create'));
    expect(created.directories.map((directory) => directory.path)).toEqual([join(ws, 'src')]);
    const deep = await paths.resolvePath('src/deep', 'read', 'must_exist');
    const child = readCheckedPath(paths.child(deep, 'x.ts', 'file'));
    expect(child.directories.map((directory) => directory.path)).toEqual([join(ws, 'src'), join(ws, 'src', 'deep')]);
    expect(readCheckedPath(paths.child(deep, 'y.ts', 'file')).directories).toBe(child.directories);
    expect(readCheckedPath(await paths.resolvePath('.', 'read', 'must_exist')).directories).toEqual([]);
  });

  it('an entry that stops being a symlink between lstat and readlink is stale, not an I/O failure', async () => {
    await symlink(join(ws, 'src'), join(ws, 'flip'));
    let flipped = false;
    const probe = {
      lstat: (path: string) => nodeProbe.lstat(path),
      readlink: async (path: string) => {
        if (path === join(ws, 'flip') && !flipped) {
          flipped = true;
          await rm(path);
          await mkdir(path);
        }
        return nodeProbe.readlink(path);
      },
    };
    const paths = await PathGuard.create({ workingDirectory: ws, probe });
    expect(await kindOf(paths.resolvePath('flip/x', 'read', 'must_exist'))).toBe('stale');
  });
});
