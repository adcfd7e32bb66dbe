/**
 * The part of tree-sitter's syntax tree the classifier reads, in types of
 * its own: web-tree-sitter's declarations name emscripten's types, which a
 * program compiling against ours would otherwise have to install
 * (@types/emscripten). web-tree-sitter's `Parser`, `Tree` and `Node` fit
 * these; classifier/index.ts, the one module that loads the grammar, is
 * where they meet.
 */
export interface SyntaxNode {
  readonly type: string;
  readonly text: string;
  readonly isNamed: boolean;
  readonly isMissing: boolean;
  readonly hasError: boolean;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly namedChildCount: number;
  readonly children: readonly (SyntaxNode | null)[];
  readonly namedChildren: readonly (SyntaxNode | null)[];
  childForFieldName(fieldName: string): SyntaxNode | null;
  childrenForFieldName(fieldName: string): readonly (SyntaxNode | null)[];
  fieldNameForChild(index: number): string | null;
  descendantsOfType(types: string): readonly (SyntaxNode | null)[];
}

/** One parse of a command line; `delete` frees it (tree-sitter's trees live in WebAssembly memory). */
export interface SyntaxTree {
  readonly rootNode: SyntaxNode;
  delete(): void;
}

/** A parser with the bash grammar loaded. */
export interface BashParser {
  parse(source: string): SyntaxTree | null;
}
