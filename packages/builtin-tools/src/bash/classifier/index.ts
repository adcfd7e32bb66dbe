import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';
import { classifyTree } from './classify.ts';
import type { CommandClassifier } from './types.ts';

let loading: Promise<Parser> | undefined;

/** Loads the tree-sitter bash grammar once per process (WebAssembly, no native build). */
function bashParser(): Promise<Parser> {
  loading ??= (async () => {
    await Parser.init();
    const require = createRequire(import.meta.url);
    const language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  })();
  return loading;
}

/** The bash effect classifier (seed §8): allow only what it fully understood, ask for the rest. */
export async function createCommandClassifier(): Promise<CommandClassifier> {
  const parser = await bashParser();
  return { classify: (command, options) => classifyTree(parser, command, options) };
}

export { READ_ONLY_PROGRAMS } from './classify.ts';
export type { ClassifierList, ClassifyOptions, CommandClassification, CommandClassifier, ParsedCommand, PermissionMode } from './types.ts';
