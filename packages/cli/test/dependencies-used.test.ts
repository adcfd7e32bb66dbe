import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A runtime dependency a package declares is one its shipped code imports.
// A library replaced by the project's own code (docs/decisions/0014) leaves the manifest with it.

const packages = fileURLToPath(new URL('../../', import.meta.url));

async function shipped(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await shipped(path)));
    else if (/\.(ts|mts|js|mjs|cjs)$/.test(entry.name)) found.push(path);
  }
  return found;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

describe('declared dependencies are used', () => {
  it('every dependency of each package is imported (or resolved) by its src, bin or build script', async () => {
    const unused: string[] = [];
    for (const name of await readdir(packages)) {
      const manifestPath = join(packages, name, 'package.json');
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { dependencies?: Record<string, string> };
      const files = [...(await shipped(join(packages, name, 'src'))), ...(await shipped(join(packages, name, 'bin'))), join(packages, name, 'build-bin.mjs')].filter((file) => existsSync(file));
      const text = (await Promise.all(files.map((file) => readFile(file, 'utf8')))).join('\n');
      for (const dependency of Object.keys(manifest.dependencies ?? {})) {
        // A specifier in quotes: import … from 'x', import('x'), require.resolve('x/…'), export … from 'x/sub'.
        if (!new RegExp(`['"\`]${escape(dependency)}(/[^'"\`]*)?['"\`]`).test(text)) unused.push(`${name}: ${dependency}`);
      }
    }
    expect(unused).toEqual([]);
  });
});
