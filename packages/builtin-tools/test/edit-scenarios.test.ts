// Edit scenarios checked purely by the final file-system state:
// fixtures/edit/NNN_name/{input/, expected/, call.json[, error.json]}.
import { cp, readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createHarness, errorKind } from './harness.ts';

const root = fileURLToPath(new URL('./fixtures/edit/', import.meta.url));

async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (current: string) => {
    for (const entry of await readdir(current, { withFileTypes: true }).catch(() => [])) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) await walk(path);
      else files[relative(dir, path)] = (await readFile(path)).toString('base64');
    }
  };
  await walk(dir);
  return files;
}

describe('edit scenarios', async () => {
  const scenarios = (await readdir(root)).sort();
  it('has scenarios', () => expect(scenarios.length).toBeGreaterThan(5));
  for (const scenario of scenarios) {
    it(scenario, async () => {
      const h = await createHarness();
      try {
        await cp(join(root, scenario, 'input'), h.ws, { recursive: true }).catch(() => undefined);
        const input = JSON.parse(await readFile(join(root, scenario, 'call.json'), 'utf8')) as unknown;
        const result = await h.call('edit', input);
        const expectedError = await readFile(join(root, scenario, 'error.json'), 'utf8').then((text) => (JSON.parse(text) as { kind: string }).kind).catch(() => undefined);
        expect(errorKind(result)).toBe(expectedError);
        expect(await snapshot(h.ws)).toEqual(await snapshot(join(root, scenario, 'expected')));
      } finally {
        await h.cleanup();
      }
    });
  }
});
