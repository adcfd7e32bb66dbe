import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packages = fileURLToPath(new URL('../../', import.meta.url));

async function sources(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await sources(path)));
    else if (/\.(ts|js|json)$/.test(entry.name)) found.push(path);
  }
  return found;
}

describe('the workspace', () => {
  it('openwork-tools never depends on openwork-core: no package depends on or imports a core package', async () => {
    const names = await readdir(packages);
    for (const name of names) {
      const manifest = JSON.parse(await readFile(join(packages, name, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
      const deps = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies });
      expect(deps.filter((dep) => /core/i.test(dep) && dep.startsWith('@openwork/'))).toEqual([]);
      for (const file of await sources(join(packages, name, 'src'))) {
        expect(await readFile(file, 'utf8'), file).not.toMatch(/from '@openwork\/core|openwork-core/);
      }
    }
  });

  it('each package index only re-exports, one named export per line', async () => {
    for (const name of await readdir(packages)) {
      const index = await readFile(join(packages, name, 'src/index.ts'), 'utf8');
      for (const line of index.split('\n').filter((text) => text.trim() !== '')) {
        expect(line, `${name}: ${line}`).toMatch(/^export (type )?\{ [A-Za-z_][A-Za-z0-9_]* \} from '\.\/[\w./-]+\.ts';$/);
      }
    }
  });

  it('pins the public export list of each package', async () => {
    const lists: Record<string, string[]> = {};
    for (const name of (await readdir(packages)).sort()) {
      const index = await readFile(join(packages, name, 'src/index.ts'), 'utf8');
      lists[name] = [...index.matchAll(/\{ ([A-Za-z_]+) \}/g)].map((match) => match[1] ?? '').sort();
    }
    expect(lists).toMatchSnapshot();
  });
});
describe('the cli package', () => {
  it('reports the version its package.json has', async () => {
    const { VERSION } = await import('../src/version.ts');
    const manifest = JSON.parse(await readFile(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8')) as { version: string };
    expect(VERSION).toBe(manifest.version);
  });
});
