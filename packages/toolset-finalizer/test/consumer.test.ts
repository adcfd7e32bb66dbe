import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const consumer = new URL('./consumer/', import.meta.url);

describe('code written against the SDKs compiles', () => {
  it('the workspace typecheck compiles the consumers of the Anthropic, openai 6 and 7, Gemini and AI SDKs, under the strict options a consumer would use', async () => {
    // `pnpm test`'s typecheck is one program over the root tsconfig.json, which includes test/consumer/*.ts:
    // its options must be at least as strict as consumer/tsconfig.json, the options a careful consumer compiles with.
    const read = async (url: URL) => JSON.parse(await readFile(url, 'utf8')) as { extends?: string; include?: string[]; compilerOptions?: Record<string, unknown> };
    const root = await read(new URL('../../../tsconfig.json', import.meta.url));
    expect(root.include).toContain('packages/*/test/**/*.ts');
    const base = await read(new URL(`../../../${root.extends ?? ''}`, import.meta.url));
    const strict = (await read(new URL('tsconfig.json', consumer))).compilerOptions ?? {};
    for (const option of ['strict', 'exactOptionalPropertyTypes', 'noUncheckedIndexedAccess', 'verbatimModuleSyntax', 'module', 'moduleResolution', 'target']) {
      expect(strict[option], option).toBeDefined();
      expect(base.compilerOptions?.[option], option).toEqual(strict[option]);
    }
  });

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
