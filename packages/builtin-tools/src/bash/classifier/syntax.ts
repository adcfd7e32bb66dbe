import type { Node, Tree } from 'web-tree-sitter';
import { reasonForNode } from './syntax-reasons.ts';
import { doubleQuotedPart, joinParts, quotedPart, unquotedPart } from './word.ts';
import type { Word } from './word.ts';

/** One simple command with where it stands in the line. */
export interface SimpleCommand {
  readonly words: readonly Word[];
  /** Part of a pipeline with more than one command. */
  readonly inPipeline: boolean;
  /** An operand of `||`, so it may run or not depending on another command. */
  readonly underOr: boolean;
  /** Files its `<` redirects read. */
  readonly inputs: readonly Word[];
}

export type SyntaxResult =
  | { readonly ok: true; readonly commands: readonly SimpleCommand[] }
  | { readonly ok: false; readonly reason: string; readonly commands: readonly SimpleCommand[] };

interface Context {
  readonly inPipeline: boolean;
  readonly underOr: boolean;
}

class Ask extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * Walks the tree with an allow list of node types: anything not on it asks,
 * since the classifier only promises what it fully understood (docs/design.md §8).
 */
export function readSyntax(tree: Tree): SyntaxResult {
  const commands: SimpleCommand[] = [];
  try {
    const root = tree.rootNode;
    if (root.hasError) throw new Ask(firstErrorReason(root));
    for (const child of root.children) {
      if (child === null) continue;
      if (child.type === ';' || child.type === '\n' || child.type === 'comment') continue;
      statement(child, { inPipeline: false, underOr: false }, commands);
    }
    if (commands.length === 0) throw new Ask('the command is empty or only a comment');
    return { ok: true, commands };
  } catch (error) {
    if (error instanceof Ask) return { ok: false, reason: error.reason, commands };
    throw error;
  }
}

function firstErrorReason(node: Node): string {
  if (node.isMissing) return `the command is incomplete: the parser expected ${JSON.stringify(node.type)}`;
  if (node.type === 'ERROR') return `the parser could not read ${JSON.stringify(node.text.slice(0, 40))}`;
  for (const child of node.children) {
    if (child !== null && (child.hasError || child.isMissing)) return firstErrorReason(child);
  }
  return 'the parser could not read the command';
}

function statement(node: Node, context: Context, out: SimpleCommand[]): void {
  switch (node.type) {
    case 'command': {
      const inputs: Word[] = [];
      out.push({ words: simpleCommand(node, inputs), ...context, inputs });
      return;
    }
    case 'pipeline':
      pipeline(node, context, out);
      return;
    case 'list':
      list(node, context, out);
      return;
    case 'redirected_statement':
      redirectedStatement(node, context, out);
      return;
    default:
      throw new Ask(reasonForNode(node.type));
  }
}

function list(node: Node, context: Context, out: SimpleCommand[]): void {
  const operator = node.children.find((child) => child !== null && !child.isNamed)?.type;
  if (operator !== '&&' && operator !== '||') throw new Ask(reasonForNode(operator ?? node.type));
  const inner = { ...context, underOr: context.underOr || operator === '||' };
  for (const child of node.children) {
    if (child === null || child.type === operator || child.type === 'comment') continue;
    statement(child, inner, out);
  }
}

function pipeline(node: Node, context: Context, out: SimpleCommand[]): void {
  for (const child of node.children) {
    if (child === null || child.type === '|' || child.type === 'comment') continue;
    if (!child.isNamed) throw new Ask(reasonForNode(child.type));
    statement(child, { ...context, inPipeline: true }, out);
  }
}

function redirectedStatement(node: Node, context: Context, out: SimpleCommand[]): void {
  const inputs: Word[] = [];
  const first = out.length;
  node.children.forEach((child, index) => {
    if (child === null) return;
    if (node.fieldNameForChild(index) === 'body') statement(child, context, out);
    else if (child.type === 'file_redirect') redirect(child, inputs);
    else throw new Ask(reasonForNode(child.type));
  });
  // The statement's redirects read their files before its first command runs.
  const owner = out[first];
  if (owner !== undefined && inputs.length > 0) out[first] = { ...owner, inputs: [...owner.inputs, ...inputs] };
  else if (inputs.length > 0) throw new Ask('a redirect without a command is not classified');
}

function simpleCommand(node: Node, inputs: Word[]): Word[] {
  const words: Word[] = [];
  let previousEnd: number | undefined;
  let previousType: string | undefined;
  for (const child of node.children) {
    if (child === null) continue;
    // Two parts with nothing between them are one word to bash (`'-'\-output=x` is `--output=x`); the tree may give them as two.
    if (previousEnd !== undefined && child.startIndex === previousEnd && child.type !== 'file_redirect' && previousType !== 'file_redirect') {
      throw new Ask(`${JSON.stringify(node.text.slice(0, 40))} has parts of one word that the parser reads as two; quote the whole word`);
    }
    previousEnd = child.endIndex;
    previousType = child.type;
    if (child.type === 'command_name') {
      const name = child.namedChildren[0];
      if (name === null || name === undefined || child.namedChildCount !== 1) throw new Ask('the program name is not a plain word');
      words.push(word(name));
    } else if (child.type === 'file_redirect') {
      redirect(child, inputs);
    } else {
      words.push(word(child));
    }
  }
  return words;
}

/** docs/design.md §8 (the shell redirection boundary): only redirects that cannot write a file pass. */
function redirect(node: Node, inputs: Word[]): void {
  let operator: string | undefined;
  let destination: Node | undefined;
  node.children.forEach((child, index) => {
    if (child === null) return;
    const field = node.fieldNameForChild(index);
    if (field === 'descriptor') return;
    if (field === 'destination') destination = child;
    else if (!child.isNamed && operator === undefined) operator = child.type;
    else throw new Ask(`the redirect ${JSON.stringify(node.text)} is not classified`);
  });
  if (operator === undefined || destination === undefined) throw new Ask(`the redirect ${JSON.stringify(node.text)} is not classified`);
  const targetWord = word(destination);
  const target = targetWord.value;
  if (operator === '<') {
    inputs.push(targetWord);
    return;
  }
  if ((operator === '>&' || operator === '<&') && /^\d+$/.test(target)) return;
  if (['>', '>>', '&>', '&>>', '>|'].includes(operator) && target === '/dev/null') return;
  throw new Ask(`the redirect ${JSON.stringify(node.text)} may write a file`);
}

function word(node: Node): Word {
  switch (node.type) {
    case 'word':
    case 'number':
      // An unquoted newline ends a command for bash (`ls⏎\rm x` is two commands); the tree may keep it inside a word.
      if (node.text.includes('\n')) throw new Ask('a word holds an unquoted line break, which bash reads as the end of a command');
      return plainWord(node.text);
    case 'raw_string':
      return quotedPart(node.text.slice(1, -1));
    case 'string':
      return doubleQuoted(node);
    case 'concatenation':
      return joinParts(
        node.children.map((child) => {
          if (child === null || child.type === 'concatenation' || !child.isNamed) throw new Ask(reasonForNode(child?.type ?? 'concatenation'));
          return word(child);
        }),
      );
    default:
      throw new Ask(reasonForNode(node.type));
  }
}

function plainWord(text: string): Word {
  const result = unquotedPart(text);
  if (/[$`]/.test(result.unquoted)) throw new Ask('a $ or backtick outside single quotes is only known when the shell runs');
  return result;
}

function doubleQuoted(node: Node): Word {
  for (const child of node.children) {
    if (child === null || child.type === '"' || child.type === 'string_content') continue;
    throw new Ask(reasonForNode(child.type));
  }
  const inner = node.text.slice(1, -1);
  // An unescaped $ or backtick inside double quotes still expands.
  if (/(^|[^\\])(\\\\)*[$`]/.test(inner)) throw new Ask('a $ or backtick inside double quotes is only known when the shell runs');
  return doubleQuotedPart(inner);
}
