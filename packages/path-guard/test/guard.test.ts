import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
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

describe('seed §11 路径安全', () => {
  it('指向工作区外的 symlink 被拒绝: file and directory links, read and write', async () => {
    await symlink(join(outside, 'secret.txt'), join(ws, 'file-link'));
    await symlink(outside, join(ws, 'dir-link'));
    expect(await check('file-link')).toBe('outside_root');
    expect(await check('file-link', 'write', 'may_create')).toBe('outside_root');
    expect(await check('dir-link/secret.txt')).toBe('outside_root');
    expect(await check('dir-link/new.txt', 'write', 'may_create')).toBe('outside_root');
  });

  it('新建文件时，父目录越界被拒绝: a new file under an outside parent, and a dangling link to outside', async () => {
    expect(await check('../outside/new.txt', 'write', 'may_create')).toBe('outside_root');
    expect(await check(join(outside, 'deep/new.txt'), 'write', 'may_create')).toBe('outside_root');
    await symlink(join(outside, 'not-yet.txt'), join(ws, 'dangling'));
    expect(await check('dangling', 'write', 'may_create')).toBe('outside_root');
  });

  it('工具无法绕过 CheckedPath 直接拿到 PathBuf: no forging, no real path on the public surface', async () => {
    expect(() => new CheckedPath(Symbol('x'), { displayPath: '/etc/passwd', access: 'read', intent: 'must_exist', internals: {} as never })).toThrow(TypeError);
    expect(() => readCheckedPath({ displayPath: 'a' } as CheckedPath)).toThrow(TypeError);
    const checked = await (await guard()).resolvePath('a.txt', 'read', 'must_exist');
    expect(Object.keys(checked).sort()).toEqual(['access', 'displayPath', 'intent', 'kind']);
    expect(JSON.stringify(checked)).toBe('"a.txt"');
    expect(Object.isFrozen(checked)).toBe(true);
  });

  it('Allow 不能绕过路径边界: there is no option that lets a path outside through', async () => {
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

  it('resolves /proc/self/root like any symlink', async () => {
    expect(await check(`/proc/self/root${ws}/a.txt`)).toBe('ok');
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
  it('walks only the components below the canonical root, and still follows links there and .. above it', async () => {
    const seen: string[] = [];
    const probe = { lstat: (path: string) => (seen.push(path), nodeProbe.lstat(path)), readlink: (path: string) => nodeProbe.readlink(path) };
    const paths = await PathGuard.create({ workingDirectory: ws, probe });
    seen.length = 0;
    await paths.resolvePath('src', 'read', 'must_exist');
    expect(seen).toEqual([join(ws, 'src')]);
    await symlink(outside, join(ws, 'src', 'out'));
    expect(await kindOf(paths.resolvePath('src/out/secret.txt', 'read', 'must_exist'))).toBe('outside_root');
    expect(await kindOf(paths.resolvePath('../outside/secret.txt', 'read', 'must_exist'))).toBe('outside_root');
    expect(await kindOf(paths.resolvePath(`${ws}/../ws/a.txt`, 'read', 'must_exist'))).toBe('ok');
  });
});
