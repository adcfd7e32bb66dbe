import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const consumer = new URL('./consumer/', import.meta.url);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

describe('code written against the SDKs compiles', () => {
  it('tsc accepts the consumers of the Anthropic, openai 6 and 7, Gemini and AI SDKs, under strict options', async () => {
    // A failure prints the diagnostics, which is the useful part of the message.
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', fileURLToPath(new URL('tsconfig.json', consumer)), '--pretty', 'false']).then(
      () => '',
      (error: Error & { stdout?: string }) => error.stdout || error.message,
    );
    expect(result).toBe('');
  }, 180_000);

  it('the consumers use no cast, and each keeps a line that must not compile', async () => {
    const files = (await readdir(consumer)).filter((file) => file.endsWith('.ts'));
    expect(files.sort()).toEqual(['ai-sdk.ts', 'anthropic.ts', 'gemini.ts', 'openai-v6.ts', 'openai.ts']);
    for (const file of files) {
      const source = await readFile(new URL(file, consumer), 'utf8');
      const code = source.replace(/\/\/.*$/gm, '');
      expect(code, file).not.toMatch(/\bas\s+(?!const\b)[\w{[(]|<any>|\bany\b/);
      expect(source, file).toContain('@ts-expect-error');
    }
  });
});
