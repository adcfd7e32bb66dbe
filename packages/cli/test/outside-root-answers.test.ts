import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from './command.ts';

let base: string;
let ws: string;
let out: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'outside-answers-')));
  ws = join(base, 'ws');
  out = join(base, 'out');
  await mkdir(ws);
  await mkdir(join(out, 'dir'), { recursive: true });
  await writeFile(join(out, 'file.txt'), 'secret\n');
  await symlink(join(out, 'file.txt'), join(ws, 'to-file'));
  await symlink(out, join(ws, 'to-out'));
});
afterAll(() => rm(base, { recursive: true, force: true }));

/** Each tool's input naming `path`. */
const calls: Record<string, (path: string) => object> = {
  read: (path) => ({ path }),
  list: (path) => ({ path }),
  write: (path) => ({ path, content: 'x' }),
  edit: (path) => ({ path, oldText: 'a', newText: 'b' }),
  grep: (path) => ({ pattern: 'secret', path }),
  glob: (path) => ({ pattern: '*', path }),
};

describe('outside the roots every tool answers outside_root (docs/contract.md §2.2)', () => {
  it('through a file, a directory, a symlink or a missing component, existing or not', async () => {
    const shapes = [`${out}/file.txt/x`, `${out}/missing/x`, `${out}/dir/x`, `${out}/file.txt`, 'to-file/x', 'to-out/file.txt/x', 'to-out/missing/x'];
    for (const [tool, input] of Object.entries(calls)) {
      for (const path of shapes) {
        const run = await runInProcess(['call', tool, JSON.stringify(input(path)), '--json', '--mode', 'acceptEdits'], { cwd: ws });
        const result = JSON.parse(run.stdout) as { error?: { kind: string } };
        expect([tool, path, result.error?.kind]).toEqual([tool, path, 'outside_root']);
      }
    }
  });
});
