import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';
import { classifyTree } from './classify.ts';
import { outlineTree } from './outline.ts';
import type { BashParser } from './syntax-tree.ts';
import type { CommandClassifier } from './types.ts';

let loading: Promise<BashParser> | undefined;

/**
 * The grammar's wasm, shipped in this package's grammar/ folder (a copy of
 * tree-sitter-bash's build with its licence: docs/decisions/0019). It is
 * resolved through the package's own export rather than relative to this
 * file, so that a bundle of this code (the CLI's command is one) still
 * finds it in node_modules.
 */
const GRAMMAR = '@openwork/bash-classifier/tree-sitter-bash.wasm';

/**
 * Loads the tree-sitter bash grammar once per process (WebAssembly, no
 * native build). web-tree-sitter's parser is seen through our own
 * `BashParser` from here on, so no declaration of this package names its types.
 */
function bashParser(): Promise<BashParser> {
  loading ??= (async () => {
    await Parser.init();
    const language = await Language.load(createRequire(import.meta.url).resolve(GRAMMAR));
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  })();
  return loading;
}

/** The bash effect classifier (docs/design.md §8): allow only what it fully understood, ask for the rest. */
export async function createCommandClassifier(): Promise<CommandClassifier> {
  const parser = await bashParser();
  return { classify: (command, options) => classifyTree(parser, command, options), outline: (command) => outlineTree(parser, command) };
}

export { READ_ONLY_PROGRAMS } from './classify.ts';
export type { ClassifierList, ClassifyOptions, CommandAllowRule, CommandClassification, CommandClassifier, CommandOutline, ParsedCommand, PermissionMode } from './types.ts';
