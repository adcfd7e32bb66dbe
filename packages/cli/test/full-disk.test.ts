import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdir, open, readFile, readdir, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runInProcess, type Run } from './command.ts';

let base: string;
let disk: string;
/** Why the tmpfs is not there, when it is not; each test then skips with this reason. */
let notMounted: string | undefined;

/** A 256 KiB tmpfs, so the full disk is real: only root can mount one. */
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'full-disk-'));
  disk = join(base, 'disk');
  try {
    if (process.getuid?.() !== 0) throw new Error('not running as root');
    mkdirSync(disk);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', disk], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    notMounted = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
  }
  vi.stubEnv('HOME', base);
});

afterAll(() => {
  vi.unstubAllEnvs();
  // Out of the tmpfs before it is unmounted: the command ran in this process.
  process.chdir(tmpdir());
  if (notMounted === undefined) execFileSync('umount', [disk]);
  rmSync(base, { recursive: true, force: true });
});

/** The command in this process, working in `cwd`; the disk it fills is real. */
const run = (args: string[], cwd: string): Promise<Run> => runInProcess(args, { cwd });

/** Fills the disk, then frees `leave` bytes, so that only that much is left. */
async function fill(directory: string, leave: number): Promise<string> {
  const filler = join(directory, 'filler');
  const handle = await open(filler, 'w');
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) await handle.write(chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    await handle.close();
  }
  const { size } = await stat(filler);
  await truncate(filler, Math.max(0, size - leave));
  return filler;
}

/** The original a failed journal append could lose: 40 KB that must survive or be undoable. */
const original = Array.from({ length: 800 }, (_, index) => `line ${index} of the user's own file`).join('\n');

describe('write on a full disk with --artifacts', () => {
  let ws: string;
  beforeEach(async ({ skip }) => {
    skip(notMounted !== undefined, `a tmpfs could not be mounted: ${notMounted}`);
    ws = join(disk, 'ws');
    await mkdir(ws);
    await writeFile(join(ws, 'keep.txt'), original);
  });
  afterEach(() => (notMounted === undefined ? rm(ws, { recursive: true, force: true }) : undefined));

  it('the journal on the full disk: io result, keep.txt untouched, no torn line, undo has nothing to do', async () => {
    const journal = join(ws, 'J');
    await fill(ws, 8192);
    const write = await run(['call', 'write', '{"path":"keep.txt","content":"replaced\\n"}', '--mode', 'acceptEdits', '--json', '--artifacts', journal], ws);
    expect(write.code).toBe(1);
    expect(write.stderr).toBe('');
    const result = JSON.parse(write.stdout) as { status: string; error?: { kind: string; message: string } };
    expect(result).toMatchObject({ status: 'error', error: { kind: 'io' } });
    expect(result.error?.message).toMatch(/keep\.txt was left unchanged: the undo journal could not record the change .*ENOSPC/);
    expect(await readFile(join(ws, 'keep.txt'), 'utf8')).toBe(original);
    expect(await readFile(journal, 'utf8')).toBe('');
    expect((await readdir(ws)).sort()).toEqual(['J', 'filler', 'keep.txt']);
    const undo = await run(['undo', '--artifacts', journal, '--json', '--trust-journal'], ws);
    expect([undo.code, JSON.parse(undo.stdout)]).toEqual([0, { undone: [], conflicts: [], skipped: [] }]);
    expect(await readFile(join(ws, 'keep.txt'), 'utf8')).toBe(original);
  });

  it('the file on the full disk, the journal elsewhere: io result, keep.txt untouched, the record abandoned and skipped', async () => {
    const journal = join(base, `elsewhere-${Date.now()}.jsonl`);
    await fill(ws, 4096);
    const content = 'y'.repeat(64 * 1024);
    const write = await run(['call', 'write', JSON.stringify({ path: 'keep.txt', content }), '--mode', 'acceptEdits', '--json', '--artifacts', journal], ws);
    expect(write.code).toBe(1);
    expect(JSON.parse(write.stdout)).toMatchObject({ status: 'error', error: { kind: 'io', message: expect.stringMatching(/no space left on device/) as unknown } });
    expect(await readFile(join(ws, 'keep.txt'), 'utf8')).toBe(original);
    expect((await readdir(ws)).sort()).toEqual(['filler', 'keep.txt']);
    const lines = (await readFile(journal, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { kind: string; changeId: string; originalContent?: string });
    expect(lines.map((line) => line.kind)).toEqual(['file_change', 'file_change_abandoned']);
    expect(lines[0]?.originalContent).toBe(original);
    const undo = await run(['undo', '--artifacts', journal, '--json', '--trust-journal'], ws);
    expect([undo.code, JSON.parse(undo.stdout)]).toEqual([0, { undone: [], conflicts: [], skipped: [lines[0]?.changeId] }]);
    expect(undo.stderr).toContain('never made');
    expect(await readFile(join(ws, 'keep.txt'), 'utf8')).toBe(original);
  });

  it('once space is freed, the same write succeeds and undo restores the original', async () => {
    const journal = join(ws, 'J');
    const filler = await fill(ws, 8192);
    expect((await run(['call', 'write', '{"path":"keep.txt","content":"replaced\\n"}', '--mode', 'acceptEdits', '--artifacts', journal], ws)).code).toBe(1);
    await rm(filler);
    const write = await run(['call', 'write', '{"path":"keep.txt","content":"replaced\\n"}', '--mode', 'acceptEdits', '--artifacts', journal], ws);
    expect(write.code).toBe(0);
    expect(await readFile(join(ws, 'keep.txt'), 'utf8')).toBe('replaced\n');
    const undo = await run(['undo', '--artifacts', journal, '--trust-journal'], ws);
    expect(undo.code).toBe(0);
    expect(await readFile(join(ws, 'keep.txt'), 'utf8')).toBe(original);
  });
});
