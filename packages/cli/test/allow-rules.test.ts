import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runInProcess, type Run } from './command.ts';

let base: string;

/** The command in this process, started in `cwd`: one call at a time, since each changes the process's directory. */
const run = (cwd: string, args: string[]): Promise<Run> => runInProcess(args, { cwd });

interface Result {
  status: string;
  error?: { kind: string; message: string };
  decision?: { verdict: string; rule: string; approved?: boolean };
}
const json = (result: Run) => JSON.parse(result.stdout) as Result;
const bash = (command: string) => ['call', 'bash', JSON.stringify({ command }), '--json'];

/** A fresh project directory, with the settings file when given. */
async function project(name: string, settings?: string): Promise<string> {
  const directory = join(base, name);
  await mkdir(directory);
  if (settings !== undefined) {
    await mkdir(join(directory, '.openwork'));
    await writeFile(join(directory, '.openwork', 'settings.json'), settings);
  }
  return directory;
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'cli-allow-')));
  vi.stubEnv('HOME', base);
  vi.stubEnv('OPENWORK_CONFIG_DIR', join(base, 'config'));
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(base, { recursive: true, force: true });
});

describe('allow rules on the command line and in .openwork/settings.json', () => {
  it("--allow 'bash:touch' runs touch without asking, named by decision.rule; a compound line with anything else is still denied", async () => {
    const ws = await project('flag');
    const [allowed, compound, substituted] = await Promise.all([
      run(ws, [...bash('touch made'), '--allow', 'bash:touch']),
      run(ws, [...bash('touch other; rm -f made'), '--allow', 'bash:touch']),
      run(ws, [...bash('touch $(rm -f made)'), '--allow', 'bash:touch']),
    ]);
    expect([allowed.code, json(allowed).decision]).toEqual([0, { verdict: 'ask', approved: true, rule: 'allow:bash:touch', reason: expect.stringContaining('allow rule') as unknown }]);
    expect([compound.code, json(compound).error?.kind, substituted.code, json(substituted).error?.kind]).toEqual([1, 'denied', 1, 'denied']);
    await expect(readFile(join(ws, 'made'), 'utf8')).resolves.toBe('');
    await expect(readFile(join(ws, 'other'))).rejects.toThrow();
  });

  it('the project settings allow the same once the folder is trusted, and a write into .openwork asks even in acceptEdits', async () => {
    const settings = JSON.stringify({ permissions: { allow: ['bash:touch'] } });
    const ws = await project('settings', settings);
    const sha256 = createHash('sha256').update(settings).digest('hex');
    const [allowed, write] = await Promise.all([
      run(ws, [...bash('touch from-settings'), '--trust-project', sha256]),
      run(ws, ['call', 'write', JSON.stringify({ path: '.openwork/settings.json', content: '{"permissions":{"allow":["bash:rm"]}}' }), '--json', '--mode', 'acceptEdits']),
    ]);
    expect([allowed.code, json(allowed).decision?.rule]).toEqual([0, 'allow:bash:touch']);
    expect([write.code, json(write).error?.message]).toEqual([
      1,
      expect.stringContaining('inside .openwork, where a change alters what runs without asking (allow rules)') as unknown,
    ]);
    expect(JSON.parse(await readFile(join(ws, '.openwork', 'settings.json'), 'utf8'))).toEqual({ permissions: { allow: ['bash:touch'] } });
  });

  it('a rule that cannot be read is a usage error, on the command line and in the settings', async () => {
    const ws = await project('invalid', '{"permissions":{"ask":["bash:rm"]}}');
    const linked = await project('linked');
    await mkdir(join(base, 'elsewhere'));
    await writeFile(join(base, 'elsewhere', 'settings.json'), '{"permissions":{"allow":["bash:rm"]}}');
    await symlink(join(base, 'elsewhere'), join(linked, '.openwork'));
    const flag = await run(linked, [...bash('ls'), '--allow', 'Bash(npm test:*)']);
    const settings = await run(ws, bash('ls'));
    const symlinked = await run(linked, bash('ls'));
    expect([flag.code, flag.stderr]).toEqual([2, expect.stringMatching(/^openwork-tools: --allow "Bash\(npm test:\*\)": only bash rules exist; .*\n$/) as unknown]);
    expect([settings.code, settings.stderr]).toEqual([2, expect.stringMatching(/settings\.json: unknown key "permissions\.ask"; a project's settings are .*\n$/) as unknown]);
    expect([symlinked.code, symlinked.stderr]).toEqual([2, expect.stringMatching(/\.openwork is a symlink; the settings are read only from a directory of the project itself\n$/) as unknown]);
  });
});
