// Copies the bash grammar's WebAssembly build and its licence from the
// tree-sitter-bash package (a devDependency of bash-classifier) into
// packages/bash-classifier/grammar/, the copy that is committed and published
// (docs/decisions/0019-bash-grammar-as-wasm.md). The tree-sitter-bash
// package is 20 MB, mostly native prebuilds and C sources the classifier
// never uses; the wasm is 1.3 MB.
//
//   pnpm --filter @openwork/bash-classifier grammar           refresh the copy
//   pnpm --filter @openwork/bash-classifier grammar --check   exit 1 if it differs
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const classifierPackage = fileURLToPath(new URL('../../packages/bash-classifier/', import.meta.url));

/** Where the committed copy lives. */
export const GRAMMAR_FOLDER = join(classifierPackage, 'grammar');

/** The files of the copy, each with what it must contain. */
export async function renderBashGrammar(): Promise<ReadonlyMap<string, Buffer>> {
  const manifestPath = createRequire(join(classifierPackage, 'package.json')).resolve('tree-sitter-bash/package.json');
  const source = dirname(manifestPath);
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { version: string; license: string; repository: string };
  const wasm = await readFile(join(source, 'tree-sitter-bash.wasm'));
  const license = await readFile(join(source, 'LICENSE'));
  const sha256 = createHash('sha256').update(wasm).digest('hex');
  const readme = [
    '# The bash grammar',
    '',
    `\`tree-sitter-bash.wasm\` is the WebAssembly build of tree-sitter-bash ${manifest.version},`,
    `unchanged, from ${manifest.repository},`,
    `under the ${manifest.license} licence in \`LICENSE\` beside it.`,
    'The bash effect classifier loads it with web-tree-sitter through this',
    "package's `./tree-sitter-bash.wasm` export.",
    '',
    `sha256: ${sha256}`,
    '',
    'Written by tools/scripts/bash-grammar.ts from the tree-sitter-bash',
    'devDependency (`pnpm --filter @openwork/bash-classifier grammar`); a test',
    'fails when the copy and the devDependency differ.',
    '',
  ].join('\n');
  return new Map([
    ['tree-sitter-bash.wasm', wasm],
    ['LICENSE', license],
    ['README.md', Buffer.from(readme)],
  ]);
}

/** The files of the committed copy that are missing or differ from the devDependency's. */
export async function staleBashGrammarFiles(folder = GRAMMAR_FOLDER): Promise<string[]> {
  const stale: string[] = [];
  for (const [name, expected] of await renderBashGrammar()) {
    const actual = await readFile(join(folder, name)).catch(() => undefined);
    if (actual === undefined || !actual.equals(expected)) stale.push(name);
  }
  return stale;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--check')) {
    const stale = await staleBashGrammarFiles();
    if (stale.length > 0) {
      console.error(`packages/bash-classifier/grammar differs from the tree-sitter-bash devDependency: ${stale.join(', ')}; run \`pnpm --filter @openwork/bash-classifier grammar\`.`);
      process.exitCode = 1;
    }
  } else {
    await mkdir(GRAMMAR_FOLDER, { recursive: true });
    for (const [name, content] of await renderBashGrammar()) await writeFile(join(GRAMMAR_FOLDER, name), content);
  }
}
