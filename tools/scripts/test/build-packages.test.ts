import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packagesInBuildOrder } from '../build-packages.ts';

const workspace = fileURLToPath(new URL('../../../', import.meta.url));

describe('the packages built in one process (pnpm build-packages)', () => {
  it('are every folder of packages/, each after the workspace packages it depends on', async () => {
    const ordered = await packagesInBuildOrder();
    expect(ordered.map((entry) => entry.folder).sort()).toEqual((await readdir(`${workspace}packages`)).sort());
    const names = ordered.map((entry) => entry.name);
    let pairs = 0;
    for (const [index, entry] of ordered.entries()) {
      for (const dependency of entry.dependencies.filter((name) => names.includes(name))) {
        expect(names.indexOf(dependency), `${entry.name} after ${dependency}`).toBeLessThan(index);
        pairs += 1;
      }
    }
    // The command alone depends on seven of the others.
    expect(pairs).toBeGreaterThan(10);
  });

  it('are what the tests of the installed tarballs wait for', async () => {
    const manifest = JSON.parse(await readFile(`${workspace}tools/package-check/package.json`, 'utf8')) as { nx: { targets: { test: { dependsOn: unknown[] } } } };
    expect(manifest.nx.targets.test.dependsOn).toEqual([{ projects: ['@openwork/workspace'], target: 'build-packages' }]);
  });
});
