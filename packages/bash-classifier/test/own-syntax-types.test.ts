import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// web-tree-sitter's declarations name emscripten's types, which a consumer
// would have to install (@types/emscripten) were ours to name web-tree-sitter's.
// tools/package-check compiles a consumer of the built declarations with
// skipLibCheck false; this keeps the source that way without a build.

const src = fileURLToPath(new URL('../src/', import.meta.url));

async function sources(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...(await sources(path)));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

describe("the classifier's syntax tree is typed by its own types", () => {
  it('only classifier/index.ts imports web-tree-sitter, and exports nothing typed by it', async () => {
    const importers: string[] = [];
    for (const file of await sources(src)) {
      const text = await readFile(file, 'utf8');
      if (/from 'web-tree-sitter'|import\('web-tree-sitter'\)/.test(text)) importers.push(relative(src, file));
    }
    expect(importers).toEqual(['classifier/index.ts']);
    const index = await readFile(join(src, 'classifier', 'index.ts'), 'utf8');
    // Its exported functions give CommandClassifier, ours; the parser stays a BashParser inside.
    expect(index).toMatch(/let loading: Promise<BashParser> \| undefined;/);
    expect(index).toMatch(/export async function createCommandClassifier\(\): Promise<CommandClassifier>/);
    expect(index).not.toMatch(/export \{[^}]*\b(Parser|Language|Node|Tree)\b[^}]*\} from 'web-tree-sitter'/);
  });
});
