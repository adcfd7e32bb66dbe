import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from './command.ts';

// A denial nobody could answer names what would let that call run, as it is typed: docs/contract.md §4.3.
let base: string;
let ws: string;
let config: string;
const saved = process.env['OPENWORK_CONFIG_DIR'];

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'denial-hints-')));
  ws = join(base, 'ws');
  config = join(base, 'config');
  await mkdir(ws);
  process.env['OPENWORK_CONFIG_DIR'] = config;
});

afterAll(async () => {
  if (saved === undefined) delete process.env['OPENWORK_CONFIG_DIR'];
  else process.env['OPENWORK_CONFIG_DIR'] = saved;
  await rm(base, { recursive: true, force: true });
});

const denial = async (tool: string, input: unknown, flags: string[] = []): Promise<string> => {
  const run = await runInProcess(['call', tool, JSON.stringify(input), ...flags], { cwd: ws });
  expect(run.code).toBe(1);
  return run.stdout.trim();
};

describe('call with no terminal: the denial names the flag or setting', () => {
  it('a command off the read-only list: the exact allow rule, as a flag and as the setting in the user settings file', async () => {
    expect(await denial('bash', { command: 'npm test' })).toBe(
      `Error [denied]: bash was not run: bash runs "npm test": npm is not on the read-only list; an allow rule "bash:npm" would let it run (in "npm test"); there is no terminal to ask; run it again with --allow 'bash:npm' (or "bash:npm" in "permissions.allow" of ${join(config, 'settings.json')}), or --yes to approve every ask`,
    );
  });

  it('a file edit, or a command acceptEdits runs: --mode acceptEdits; in acceptEdits or inside .git/, only --yes', async () => {
    expect(await denial('write', { path: 'a.txt', content: 'x' })).toMatch(/; there is no terminal to ask; run it again with --mode acceptEdits, or --yes to approve every ask$/);
    expect(await denial('bash', { command: 'touch a.txt' })).toMatch(/; run it again with --mode acceptEdits, or --yes to approve every ask$/);
    expect(await denial('write', { path: '.git/config', content: 'x' }, ['--mode', 'acceptEdits'])).toMatch(/inside \.git, .*; run it again with --yes to approve every ask$/);
  });

  it('a path outside the roots: the root flag that would hold it', async () => {
    expect(await denial('bash', { command: 'cat /etc/hostname' })).toMatch(/; run it again with --read-root DIR \(a directory that holds the path\), or --yes to approve every ask$/);
    expect(await denial('bash', { command: `touch ${join(base, 'outside.txt')}` }, ['--mode', 'acceptEdits'])).toMatch(/; run it again with --root DIR \(a directory that holds the path\), or --yes to approve every ask$/);
  });
});
