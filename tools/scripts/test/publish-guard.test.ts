import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manifestProblems, packedManifest, packerUserAgent, publishProblems } from '../publish-guard.ts';

const run = promisify(execFile);
const guard = fileURLToPath(new URL('../publish-guard.ts', import.meta.url));
const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');
const repository = fileURLToPath(new URL('../../../', import.meta.url));
const PNPM = 'pnpm/12.4.2 npm/? node/v20.20.2 linux x64';
const NPM = 'npm/11.0.0 node/v20.20.2 linux x64 workspaces/false';

/** A manifest shaped like the workspace's packages. */
const manifest = {
  name: '@openwork/example',
  version: '0.1.0',
  type: 'module',
  exports: { '.': { 'openwork-build': { types: './dist/index.d.ts' }, default: './src/index.ts' } },
  publishConfig: { exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } } },
  files: ['dist'],
  scripts: { prepack: `"${process.execPath}" "${tsxCli}" "${guard}"` },
};

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'publish-guard-'));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function write(path: string, content: string, modified?: Date): Promise<void> {
  await mkdir(dirname(join(folder, path)), { recursive: true });
  await writeFile(join(folder, path), content);
  if (modified) await utimes(join(folder, path), modified, modified);
}

async function built(): Promise<void> {
  const earlier = new Date(Date.now() - 60_000);
  await write('package.json', JSON.stringify(manifest));
  await write('src/index.ts', 'export const one = 1;\n', earlier);
  await write('src/index.test.ts', 'test source, never built\n', earlier);
  await write('dist/index.js', 'export const one = 1;\n');
  await write('dist/index.d.ts', 'export declare const one = 1;\n');
}

describe('the manifest that would be packed', () => {
  it('under pnpm takes exports from publishConfig and has no workspace ranges', () => {
    const packed = packedManifest({ ...manifest, dependencies: { '@openwork/tool-contract': 'workspace:*', typebox: '^1.4.3' } }, { rewrites: true });
    expect(packed.exports).toEqual(manifest.publishConfig.exports);
    expect(packed.dependencies?.typebox).toBe('^1.4.3');
    expect(manifestProblems(packed)).toEqual([]);
  });

  it('under npm is the workspace manifest, which the guard refuses', () => {
    const packed = packedManifest({ ...manifest, dependencies: { '@openwork/tool-contract': 'workspace:*' } }, { rewrites: false });
    expect(manifestProblems(packed)).toEqual([
      'dependencies.@openwork/tool-contract is "workspace:*", which no registry can resolve',
      'the manifest points at ./src/index.ts, a TypeScript source, not the built JavaScript',
    ]);
  });
});

describe('publishProblems', () => {
  it('accepts a built package under pnpm', async () => {
    await built();
    expect(await publishProblems(folder, { userAgent: PNPM })).toEqual([]);
  });

  it('refuses the same package under npm, or with no package manager named', async () => {
    await built();
    expect(await publishProblems(folder, { userAgent: NPM })).toEqual(['the manifest points at ./src/index.ts, a TypeScript source, not the built JavaScript']);
    expect(await publishProblems(folder, { userAgent: undefined })).toHaveLength(1);
  });

  it('refuses an unbuilt package', async () => {
    await write('package.json', JSON.stringify(manifest));
    await write('src/index.ts', 'export const one = 1;\n');
    expect(await publishProblems(folder, { userAgent: PNPM })).toEqual([
      'dist/index.d.ts does not exist',
      'dist/index.js does not exist',
      'src/index.ts has no dist/index.js',
      'src/index.ts has no dist/index.d.ts',
    ]);
  });

  it('refuses a build older than its sources, or missing one of them', async () => {
    await built();
    await write('src/index.ts', 'export const one = 2;\n', new Date(Date.now() + 60_000));
    await write('src/two.ts', 'export const two = 2;\n');
    expect(await publishProblems(folder, { userAgent: PNPM })).toEqual([
      'dist/index.js is older than src/index.ts',
      'dist/index.d.ts is older than src/index.ts',
      'src/two.ts has no dist/two.js',
      'src/two.ts has no dist/two.d.ts',
    ]);
  });

  it('refuses output whose source is gone, which the tarball would carry', async () => {
    await built();
    await write('dist/removed.js', 'export {};\n');
    await write('dist/removed.js.map', '{}');
    expect(await publishProblems(folder, { userAgent: PNPM })).toEqual(['dist/removed.js has no source in src/ (left by an earlier build)', 'dist/removed.js.map has no source in src/ (left by an earlier build)']);
  });

  it('accepts a bundle named by bin only when it is newer than every source', async () => {
    await built();
    const bundled = { ...manifest, publishConfig: { ...manifest.publishConfig, bin: { tool: './dist/tool.js' } } };
    await write('package.json', JSON.stringify(bundled));
    await write('dist/tool.js', '#!/usr/bin/env node\n');
    await write('dist/tool.js.LEGAL.txt', 'licences\n');
    expect(await publishProblems(folder, { userAgent: PNPM })).toEqual([]);
    await write('dist/tool.js', '#!/usr/bin/env node\n', new Date(Date.now() - 120_000));
    expect(await publishProblems(folder, { userAgent: PNPM })).toEqual(['dist/tool.js is older than the newest file in src/']);
  });
});

describe('the packer', () => {
  it('is npm when npm runs the script, whatever user agent it inherited from a pnpm script', () => {
    const npm = '/usr/lib/node_modules/npm/bin/npm-cli.js';
    expect(packerUserAgent({ npm_execpath: npm, npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64' })).toBe('npm/11.19.1');
    expect(packerUserAgent({ npm_execpath: npm, npm_config_user_agent: 'pnpm/12.4.2 npm/? node/v20.20.2 linux x64' })).toBe('npm/?');
    expect(packerUserAgent({ npm_execpath: '/usr/lib/node_modules/pnpm/pnpm', npm_config_user_agent: PNPM })).toBe(PNPM);
    expect(packerUserAgent({ npm_config_user_agent: PNPM })).toBe(PNPM);
    expect(packerUserAgent({})).toBeUndefined();
  });
});

describe('as the prepack script', () => {
  it('pnpm pack refuses an unbuilt package, and packs it once built', async () => {
    await write('package.json', JSON.stringify(manifest));
    await write('src/index.ts', 'export const one = 1;\n');
    const refused = await run('pnpm', ['pack', '--pack-destination', join(folder, 'out')], { cwd: folder }).then(
      () => '',
      (error: Error & { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
    );
    expect(refused).toContain('@openwork/example cannot be packed or published as it is');
    expect(refused).toContain('dist/index.js does not exist');
    expect(refused).toContain('pnpm --filter @openwork/example build');
    await built();
    await run('pnpm', ['pack', '--pack-destination', join(folder, 'out')], { cwd: folder });
    expect(await readdir(join(folder, 'out'))).toEqual(['openwork-example-0.1.0.tgz']);
  }, 60_000);

  it('npm pack of a workspace package is refused, built or not, and writes nothing', async () => {
    const packageDir = join(repository, 'packages', 'path-guard');
    const refused = await run('npm', ['pack', '--dry-run', '--pack-destination', folder], { cwd: packageDir }).then(
      () => '',
      (error: Error & { stderr?: string }) => error.stderr ?? error.message,
    );
    expect(refused).toContain('@openwork/path-guard cannot be packed or published as it is');
    expect(refused).toContain('dependencies.@openwork/tool-contract is "workspace:*"');
    expect(refused).toContain('Release with pnpm');
    expect(await readdir(folder)).toEqual([]);
  }, 60_000);

  it('every published package runs the guard before it is packed', async () => {
    for (const name of await readdir(join(repository, 'packages'))) {
      const packageManifest = JSON.parse(await readFile(join(repository, 'packages', name, 'package.json'), 'utf8')) as { private?: boolean; scripts?: Record<string, string> };
      if (packageManifest.private === true) continue;
      expect(packageManifest.scripts?.prepack, name).toBe('tsx ../../tools/scripts/publish-guard.ts');
    }
  });
});
