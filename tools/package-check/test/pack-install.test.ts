import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGES, packAndInstall } from '../src/index.ts';

const run = promisify(execFile);
const here = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => join(here, 'node_modules', '.bin', name);

let base: string;
let tarballs: ReadonlyMap<string, string>;
let project: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'pack-install-'));
  ({ project, tarballs } = await packAndInstall(base));
  await copyFile(join(here, 'consumer', 'consumer.mjs'), join(project, 'consumer.mjs'));
}, 600_000);

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('the packages install from their tarballs', () => {
  it('packs every package, with only dist/, README and LICENSE besides the manifest', async () => {
    expect([...tarballs.keys()].sort()).toEqual([...PACKAGES].sort());
    for (const [name, tarball] of tarballs) {
      const { stdout } = await run('tar', ['-tzf', tarball]);
      const files = stdout.trim().split('\n');
      expect(files, name).toContain('package/package.json');
      expect(files, name).toContain('package/README.md');
      expect(files, name).toContain('package/LICENSE');
      expect(files, name).toContain('package/dist/index.js');
      expect(files, name).toContain('package/dist/index.d.ts');
      expect(files.filter((file) => !/^package\/(package\.json|README\.md|LICENSE|dist\/.*)$/.test(file)), name).toEqual([]);
      expect(files.some((file) => file.endsWith('.test.js')), name).toBe(false);
    }
  });

  it('passes publint and arethetypeswrong for each package', async () => {
    for (const [name, tarball] of tarballs) {
      const publint = await run(bin('publint'), ['run', tarball, '--strict', '--level', 'warning']);
      expect(publint.stdout, name).not.toMatch(/error|warning/i);
      // esm-only: the packages are ESM ("type": "module"); a require() of them is not offered.
      await expect(run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-color']), name).resolves.toBeDefined();
    }
  }, 300_000);

  it('a consumer builds a toolset from the installed packages and calls read and bash', async () => {
    const { stdout } = await run(process.execPath, ['consumer.mjs'], { cwd: project });
    const result = JSON.parse(stdout) as {
      names: string[];
      read: { content: string };
      bash: { status: string; stdout: { text: string } };
      bashDecision: { verdict: string; rule: string };
      write: { kind: string; message: string };
    };
    expect(result.names).toEqual(expect.arrayContaining(['read', 'write', 'edit', 'list', 'bash']));
    expect(result.read.content).toBe('hello from a tarball\n');
    expect(result.bash).toMatchObject({ status: 'exited', stdout: { text: '21\n' } });
    // The permission policy, with its bash classifier, works from the installed tarballs.
    expect(result.bashDecision).toMatchObject({ verdict: 'allow', rule: 'read_only:cat, read_only:wc' });
    expect(result.write).toEqual({ kind: 'denied', message: 'write was not run: write writes new.txt; there was nobody to ask' });
  }, 60_000);

  it('the installed openwork-tools command runs from built JavaScript', async () => {
    const { stdout } = await run('npx', ['--no-install', 'openwork-tools', 'tools', '--json'], { cwd: project });
    const listed = JSON.parse(stdout) as { tools: Array<{ name: string }> } | Array<{ name: string }>;
    const tools = Array.isArray(listed) ? listed : listed.tools;
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['read', 'bash']));
    const installedBin = join(project, 'node_modules', '@openwork', 'cli', 'dist', 'openwork-tools.js');
    const { stdout: text } = await run(process.execPath, [installedBin, 'call', 'read', '{"path":"consumer.mjs"}'], { cwd: project });
    expect(text).toContain('builtinTools');
    // No TypeScript loader in the installed tree.
    await expect(run(process.execPath, ['-e', "import('tsx').then(() => process.exit(3), () => process.exit(0))"], { cwd: project })).resolves.toBeDefined();
  }, 60_000);
});
