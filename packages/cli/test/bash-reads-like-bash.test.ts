import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runInProcess } from './command.ts';

let base: string;
let ws: string;
let out: string;

/** The command through runCli in this process, started in the workspace; calls at once share it as their directory. */
const run = (args: string[]) => runInProcess(args, { cwd: ws });

interface Result {
  status: string;
  error?: { kind: string; message: string };
}
const call = async (command: string, mode: 'default' | 'acceptEdits') => JSON.parse((await run(['call', 'bash', JSON.stringify({ command }), '--json', '--mode', mode])).stdout) as Result;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'cli-bash-reads-')));
  vi.stubEnv('HOME', base);
  vi.stubEnv('OPENWORK_CONFIG_DIR', join(base, 'config'));
  ws = join(base, 'ws');
  out = join(base, 'OUT');
  await mkdir(ws);
  await mkdir(join(out, 'dir'), { recursive: true });
  await writeFile(join(out, 'f'), 'keep\n');
  await writeFile(join(out, 'secret'), 'secret\n');
  await writeFile(join(out, 'dir', 'inside'), 'inside\n');
  await writeFile(join(base, 'home-secret.txt'), 'home secret\n');
  await writeFile(join(ws, 'a.txt'), 'a\n');
  await writeFile(join(ws, 'x'), 'x\n');
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(base, { recursive: true, force: true });
});

describe('a command line means what bash reads (through the CLI)', () => {
  it.each(['default', 'acceptEdits'] as const)('%s: nothing outside is written, deleted or read without approval', async (mode) => {
    const lines = [
      `printf X > ${out}/f /dev/null`,
      `true > ${out}/f /dev/null`,
      `cat < a.txt ${out}/secret a.txt`,
      `rm x < a.txt -rf ${out}/dir a.txt`,
      'cd 0>/dev/null && cat home-secret.txt',
      `ls 2>&1 ${out}`,
      `cat a.txt >/dev/null 2>&1 ${out}/secret`,
    ];
    const results = await Promise.all(lines.map((line) => call(line, mode)));
    for (const [index, result] of results.entries()) {
      expect([lines[index], result.status, result.error?.kind]).toEqual([lines[index], 'denied', 'denied']);
      expect(JSON.stringify(result)).not.toContain('secret\\n');
    }
    await expect(readFile(join(out, 'f'), 'utf8')).resolves.toBe('keep\n');
    expect((await readdir(out)).sort()).toEqual(['dir', 'f', 'secret']);
    expect(await readdir(join(out, 'dir'))).toEqual(['inside']);
    expect((await readdir(ws)).sort()).toEqual(['a.txt', 'x']);
  });

  it('a line bash reads as the classifier does still runs on its own', async () => {
    const result = await call('cat < a.txt x a.txt 2>/dev/null', 'default');
    expect(result.status).toBe('ok');
  });
});
