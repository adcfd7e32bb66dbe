import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Each decision record says first whether it still holds, and one that was
// replaced names a record that exists.

const decisions = fileURLToPath(new URL('../../../docs/decisions/', import.meta.url));
const STATUS = /^Status: (accepted|retired|superseded by (\d{4}))\n\n# (\d{4}): \S/;

async function records(): Promise<{ readonly file: string; readonly text: string }[]> {
  const files = (await readdir(decisions)).filter((file) => /^\d{4}-[\w-]+\.md$/.test(file)).sort();
  return Promise.all(files.map(async (file) => ({ file, text: await readFile(join(decisions, file), 'utf8') })));
}

describe('decision records', () => {
  it('each starts with its status, then its title with its own number', async () => {
    const all = await records();
    expect(all.length).toBeGreaterThan(0);
    const numbers = new Set(all.map(({ file }) => file.slice(0, 4)));
    for (const { file, text } of all) {
      const match = STATUS.exec(text);
      expect(match, `${file} starts with "Status: accepted | superseded by NNNN | retired", a blank line and "# NNNN: title"`).not.toBeNull();
      expect(match?.[3], `${file}'s title carries its own number`).toBe(file.slice(0, 4));
      const successor = match?.[2];
      if (successor !== undefined) {
        expect(numbers.has(successor), `${file} is superseded by ${successor}, which exists`).toBe(true);
        expect(successor > file.slice(0, 4), `${file} is superseded by a later record`).toBe(true);
      }
    }
  });

  it('the pattern refuses a record without a status or with an unknown one', () => {
    expect(STATUS.test('# 0001: title\n')).toBe(false);
    expect(STATUS.test('Status: proposed\n\n# 0001: title\n')).toBe(false);
    expect(STATUS.test('Status: superseded\n\n# 0001: title\n')).toBe(false);
    expect(STATUS.test('Status: superseded by 0012\n\n# 0007: title\n')).toBe(true);
  });
});
