import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isInside } from '../src/lexical.ts';
import { PathGuard, type PathGuardOptions } from '../src/index.ts';
import { nodeProbe } from './node-probe.ts';

let base: string;
let ws: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'guard-edges-')));
  ws = join(base, 'ws');
  await mkdir(ws);
  await writeFile(join(ws, 'a.txt'), 'a');
});
afterEach(() => rm(base, { recursive: true, force: true }));

/** The error of a resolution, as `{kind, message}`, or 'ok'. */
async function outcome(input: unknown, options: Partial<PathGuardOptions> = {}, access: 'read' | 'write' = 'read'): Promise<'ok' | { kind: string; message: string }> {
  const guard = await PathGuard.create({ workingDirectory: ws, probe: nodeProbe, ...options });
  try {
    await guard.resolvePath(input as string, access, 'may_create');
    return 'ok';
  } catch (error) {
    const { kind, message } = error as { kind: string; message: string };
    return { kind, message };
  }
}

const kindOf = async (input: unknown, options: Partial<PathGuardOptions> = {}, access: 'read' | 'write' = 'read') => {
  const result = await outcome(input, options, access);
  return result === 'ok' ? 'ok' : result.kind;
};

describe('the limits of a path are the system\'s, to the byte', () => {
  it('a component of 255 bytes is a name; 256 bytes, also as 128 two-byte characters, is name_too_long', async () => {
    expect(await kindOf('x'.repeat(255))).toBe('ok');
    expect(await kindOf('x'.repeat(256))).toBe('name_too_long');
    // 128 two-byte characters: 128 characters, 256 bytes.
    expect(await kindOf('é'.repeat(128))).toBe('name_too_long');
    const long = await outcome('y'.repeat(300));
    expect(long !== 'ok' && long.message).toMatch(new RegExp(`255 bytes: ${'y'.repeat(40)}…$`));
  });

  it('a whole path of 4096 bytes is accepted and one of 4097 is name_too_long', async () => {
    const room = 4096 - ws.length - 1;
    const parts: string[] = [];
    let left = room;
    for (; left > 201; left -= 201) parts.push('p'.repeat(200));
    parts.push('p'.repeat(left));
    const exact = parts.join('/');
    expect(Buffer.byteLength(join(ws, exact))).toBe(4096);
    expect(await kindOf(exact)).toBe('ok');
    expect(await kindOf(`${exact}q`)).toBe('name_too_long');
  });
});

describe('input that is not a plain path', () => {
  it('anything but a string is invalid_input, as an empty path is, with a message that says so', async () => {
    for (const input of [undefined, null, 42, ['a.txt'], { path: 'a.txt' }]) expect(await kindOf(input)).toBe('invalid_input');
    const empty = await outcome('   ');
    expect(empty !== 'ok' && empty.message).toMatch(/the path is empty/);
  });

  it('only a scheme at the very start makes a URL: a relative path with :// later in it is a path', async () => {
    expect(await kindOf('notes/http://x')).toBe('ok');
    expect(await kindOf('http://x')).toBe('invalid_input');
  });
});

describe('roots', () => {
  it('the file system root contains every absolute path', () => {
    expect(isInside('/etc/passwd', '/')).toBe(true);
    expect(isInside('/', '/')).toBe(true);
    expect(isInside('/w/ws-evil', '/w/ws')).toBe(false);
  });

  it('a refusal names which kind of root refused, and outside_root lists only the writable roots', async () => {
    const vendor = join(ws, 'vendor');
    const keys = join(ws, 'keys');
    const docs = join(base, 'docs');
    await mkdir(vendor);
    await mkdir(keys);
    await mkdir(docs);
    const options = { readOnlyRoots: [vendor, docs], protectedRoots: [keys] };
    const readOnly = await outcome(join(vendor, 'x'), options, 'write');
    expect(readOnly).toEqual({ kind: 'protected', message: expect.stringMatching(/in a read-only root \(.*vendor\)/) as unknown });
    const protectedRoot = await outcome(join(keys, 'x'), options, 'write');
    expect(protectedRoot).toEqual({ kind: 'protected', message: expect.stringMatching(/in a protected root \(.*keys\)/) as unknown });
    const outside = await outcome(join(base, 'elsewhere', 'x'), options);
    expect(outside !== 'ok' && outside.kind).toBe('outside_root');
    expect(outside !== 'ok' && outside.message).toContain(`allowed roots (${ws})`);
  });
});

describe('symbolic links', () => {
  it('a chain of exactly maxSymlinks links resolves; one more is symlink_loop', async () => {
    await symlink('a.txt', join(ws, 'l0'));
    for (let link = 1; link <= 4; link += 1) await symlink(`l${link - 1}`, join(ws, `l${link}`));
    // l3 → l2 → l1 → l0 → a.txt follows four links, l4 five.
    expect(await kindOf('l3', { maxSymlinks: 4 })).toBe('ok');
    expect(await kindOf('l4', { maxSymlinks: 4 })).toBe('symlink_loop');
    expect(await kindOf('l4', { maxSymlinks: 5 })).toBe('ok');
  });
});
