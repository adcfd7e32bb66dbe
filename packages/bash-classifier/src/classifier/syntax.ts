import type { SyntaxNode, SyntaxTree } from './syntax-tree.ts';
import { reasonForNode } from './syntax-reasons.ts';
import { descriptorNumber, isDescriptorWord, isVariableDescriptor, operatorOf, readRedirect, RedirectAsk, redirectionProblem } from './redirects.ts';
import type { Redirection } from './redirects.ts';
import { doubleQuotedPart, joinParts, quotedPart, unquotedPart } from './word.ts';
import type { Word } from './word.ts';

/** One simple command with where it stands in the line. */
export interface SimpleCommand {
  readonly words: readonly Word[];
  /** Files its `<` redirects read. */
  readonly inputs: readonly Word[];
  /** Its redirections in the order bash applies them. */
  readonly redirections: readonly Redirection[];
  /** Files its `>`, `>>`, `>|`, `&>` and `&>>` redirects write (`/dev/null` left out), each with the redirect's text. */
  readonly outputs: readonly { readonly target: Word; readonly text: string }[];
}

export type SyntaxResult =
  | { readonly ok: true; readonly commands: readonly SimpleCommand[] }
  | { readonly ok: false; readonly reason: string; readonly commands: readonly SimpleCommand[] };

/** A simple command's nodes in source order (its words and redirects, and those of a redirected statement that end it). */
interface Pending {
  readonly nodes: SyntaxNode[];
  /** The `command` node, for the text a reason quotes. */
  readonly node: SyntaxNode;
}

class Ask extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * Walks the tree with an allow list of node types: anything not on it asks,
 * since the classifier only promises what it fully understood (docs/security.md).
 */
export function readSyntax(tree: SyntaxTree): SyntaxResult {
  const commands: SimpleCommand[] = [];
  try {
    const root = tree.rootNode;
    if (root.hasError) throw new Ask(firstErrorReason(root));
    const pending: Pending[] = [];
    for (const child of root.children) {
      if (child === null) continue;
      if (child.type === ';' || child.type === '\n' || child.type === 'comment') continue;
      statement(child, pending);
    }
    for (const each of pending) commands.push(simpleCommand(each));
    if (commands.length === 0) throw new Ask('the command is empty or only a comment');
    return { ok: true, commands };
  } catch (error) {
    if (error instanceof Ask || error instanceof RedirectAsk) return { ok: false, reason: error.reason, commands };
    throw error;
  }
}

function firstErrorReason(node: SyntaxNode): string {
  if (node.isMissing) return `the command is incomplete: the parser expected ${JSON.stringify(node.type)}`;
  if (node.type === 'ERROR') return `the parser could not read ${JSON.stringify(node.text.slice(0, 40))}`;
  for (const child of node.children) {
    if (child !== null && (child.hasError || child.isMissing)) return firstErrorReason(child);
  }
  return 'the parser could not read the command';
}

function statement(node: SyntaxNode, out: Pending[]): void {
  switch (node.type) {
    case 'command':
      out.push({ nodes: node.children.filter((child) => child !== null), node });
      return;
    case 'pipeline':
      pipeline(node, out);
      return;
    case 'list':
      list(node, out);
      return;
    case 'redirected_statement':
      redirectedStatement(node, out);
      return;
    default:
      throw new Ask(reasonForNode(node.type));
  }
}

function list(node: SyntaxNode, out: Pending[]): void {
  const operator = node.children.find((child) => child !== null && !child.isNamed)?.type;
  if (operator !== '&&' && operator !== '||') throw new Ask(reasonForNode(operator ?? node.type));
  for (const child of node.children) {
    if (child === null || child.type === operator || child.type === 'comment') continue;
    statement(child, out);
  }
}

function pipeline(node: SyntaxNode, out: Pending[]): void {
  for (const child of node.children) {
    if (child === null || child.type === '|' || child.type === 'comment') continue;
    if (!child.isNamed) throw new Ask(reasonForNode(child.type));
    statement(child, out);
  }
}

/**
 * tree-sitter hangs redirects that end a pipeline or a list (`ls | cat > f`)
 * on the whole statement; bash gives them to the simple command right before
 * them, which is the last one read so far.
 */
function redirectedStatement(node: SyntaxNode, out: Pending[]): void {
  const first = out.length;
  node.children.forEach((child, index) => {
    if (child === null) return;
    if (node.fieldNameForChild(index) === 'body') {
      statement(child, out);
      return;
    }
    if (child.type !== 'file_redirect' && child.type !== 'heredoc_redirect' && child.type !== 'herestring_redirect') throw new Ask(reasonForNode(child.type));
    const owner = out.at(-1);
    if (owner === undefined || out.length === first) throw new Ask('a redirect without a command is not classified');
    owner.nodes.push(child);
    if (child.type === 'heredoc_redirect') heredocContinuation(child, out);
  });
}

/**
 * What follows a here-document's delimiter on its line (`cat <<EOF > f && ls`,
 * `cat <<EOF | grep x`): tree-sitter puts it inside the here-document's node;
 * bash runs it after the command that reads the document.
 */
function heredocContinuation(node: SyntaxNode, out: Pending[]): void {
  const owner = out.at(-1);
  let operator: string | undefined;
  node.children.forEach((child, index) => {
    if (child === null || owner === undefined) return;
    if (!child.isNamed && (child.type === '&&' || child.type === '||')) {
      operator = child.type;
    } else if (child.type === 'pipeline') {
      for (const part of child.children) {
        if (part === null || part.type === '|' || part.type === 'comment') continue;
        if (!part.isNamed) throw new Ask(reasonForNode(part.type));
        statement(part, out);
      }
    } else if (node.fieldNameForChild(index) === 'right') {
      if (operator === undefined) throw new Ask('a command after a here-document is joined in a way that is not classified');
      statement(child, out);
    }
  });
}

/** The delimiter after quote removal, and whether any of it was quoted: a quoted delimiter makes the body plain text. */
function heredocDelimiter(text: string): { readonly delimiter: string; readonly quoted: boolean } {
  return { delimiter: text.replace(/['"\\]/g, ''), quoted: /['"\\]/.test(text) };
}

function simpleCommand(pending: Pending): SimpleCommand {
  const { nodes } = pending;
  const words: Word[] = [];
  const inputs: Word[] = [];
  const redirections: Redirection[] = [];
  const outputs: { target: Word; text: string }[] = [];
  const fileRedirect = (child: SyntaxNode, next: SyntaxNode | undefined) => {
    const reading = readRedirect(child, descriptor, word);
    descriptor = undefined;
    if (isOutput(reading.redirection)) outputs.push({ target: reading.targetWord, text: child.text });
    else {
      const problem = redirectionProblem(reading.redirection, child.text);
      if (problem !== undefined) throw new Ask(problem);
    }
    if (reading.redirection.operator === '<') inputs.push(reading.targetWord);
    redirections.push(reading.redirection);
    // The words after the target are the command's next arguments (`> f a b` runs the command with `a b`).
    reading.trailing.forEach((argument, at) => {
      words.push(commandWord(argument, reading.trailing[at + 1] ?? next, (number) => (descriptor = number)));
    });
  };
  let previousEnd: number | undefined;
  let previousType: string | undefined;
  let descriptor: number | undefined;
  nodes.forEach((child, index) => {
    // Two parts with nothing between them are one word to bash (`'-'\-output=x` is `--output=x`); the tree may give them as two.
    if (previousEnd !== undefined && child.startIndex === previousEnd && child.type !== 'file_redirect' && previousType !== 'file_redirect') {
      throw new Ask(`${JSON.stringify(pending.node.text.slice(0, 40))} has parts of one word that the parser reads as two; quote the whole word`);
    }
    // `<a.txt2>f`: the tree gives the 2 to the next redirect as its descriptor; bash keeps it in the word before (`a.txt2`).
    if (child.type === 'file_redirect' && child.startIndex === previousEnd && child.childForFieldName('descriptor') !== null) {
      throw new Ask(`${JSON.stringify(child.text.slice(0, 20))} is glued to the word before it, which bash reads as one word with its digits; put a blank before the redirect`);
    }
    previousEnd = child.endIndex;
    previousType = child.type;
    const next = nodes[index + 1];
    if (child.type === 'file_redirect') {
      fileRedirect(child, next);
    } else if (child.type === 'heredoc_redirect') {
      if (descriptor !== undefined) throw new Ask('a here-document on a descriptor other than 0 is not classified');
      hereDocument(child, redirections, fileRedirect);
    } else if (child.type === 'herestring_redirect') {
      if (descriptor !== undefined) throw new Ask('a here-string on a descriptor other than 0 is not classified');
      const text = child.namedChildren[0];
      if (child.namedChildCount !== 1 || text === null || text === undefined) throw new Ask('a here-string is not classified');
      // Its word is checked as any other: a $, backtick or glob asks.
      redirections.push({ descriptor: 0, operator: '<<<', target: word(text).value });
    } else if (child.type === 'command_name') {
      const name = child.namedChildren[0];
      if (name === null || name === undefined || child.namedChildCount !== 1) throw new Ask('the program name is not a plain word');
      words.push(commandWord(name, next, (number) => (descriptor = number)));
    } else {
      words.push(commandWord(child, next, (number) => (descriptor = number)));
    }
  });
  return { words: words.filter((each): each is Word => each !== DESCRIPTOR), inputs, redirections, outputs };
}

const OUTPUT_OPERATORS = new Set(['>', '>>', '>|', '&>', '&>>']);

/** A redirect that writes a file other than /dev/null: the gate checks its target in acceptEdits. */
function isOutput(redirection: Redirection): boolean {
  return OUTPUT_OPERATORS.has(redirection.operator) && redirection.target !== '/dev/null';
}

/**
 * A here-document is data on standard input when bash expands nothing in
 * it: its delimiter is quoted, or its body has no `$`, backtick or
 * backslash. The redirects on its line are the command's own.
 */
function hereDocument(node: SyntaxNode, redirections: Redirection[], fileRedirect: (child: SyntaxNode, next: SyntaxNode | undefined) => void): void {
  let operator: string | undefined;
  let start: { readonly delimiter: string; readonly quoted: boolean } | undefined;
  const children = node.children;
  for (const [index, child] of children.entries()) {
    if (child === null) continue;
    if (!child.isNamed && (child.type === '<<' || child.type === '<<-') && operator === undefined) operator = child.type;
    else if (child.type === 'heredoc_start') start = heredocDelimiter(child.text);
    else if (child.type === 'file_redirect') fileRedirect(child, undefined);
    else if (child.type === 'heredoc_body') {
      if (start === undefined) throw new Ask('a here-document without a delimiter is not classified');
      if (!start.quoted && /[$`\\]/.test(child.text)) {
        throw new Ask('an unquoted here-document whose body has a $, backtick or backslash is expanded when the shell runs; quote the delimiter (<<\'EOF\')');
      }
    } else if (child.type === 'heredoc_end' || child.type === 'pipeline' || child.type === '&&' || child.type === '||' || node.fieldNameForChild(index) === 'right') continue;
    else throw new Ask(`${JSON.stringify(child.type)} in a here-document is not classified`);
  }
  if (operator === undefined || start === undefined) throw new Ask('a here-document is not classified');
  redirections.push({ descriptor: 0, operator, target: start.delimiter });
}

/** Stands for a digit word that bash reads as a descriptor; dropped from the words. */
const DESCRIPTOR: Word = { value: '', unquoted: '' };

/** A word of a command, or DESCRIPTOR when bash reads it as the descriptor of the redirect right after it (`cd 0>/dev/null`). */
function commandWord(node: SyntaxNode, next: SyntaxNode | undefined, setDescriptor: (descriptor: number) => void): Word {
  if (next !== undefined && isDescriptorWord(node, next)) {
    setDescriptor(descriptorNumber(node.text));
    return DESCRIPTOR;
  }
  if (next !== undefined && isVariableDescriptor(node, next)) throw new Ask(`${node.text}${operatorOf(next) ?? ''} opens a descriptor and stores it in a variable, which is not classified`);
  return word(node);
}

function word(node: SyntaxNode): Word {
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

function doubleQuoted(node: SyntaxNode): Word {
  for (const child of node.children) {
    if (child === null || child.type === '"' || child.type === 'string_content') continue;
    throw new Ask(reasonForNode(child.type));
  }
  const inner = node.text.slice(1, -1);
  // An unescaped $ or backtick inside double quotes still expands.
  if (/(^|[^\\])(\\\\)*[$`]/.test(inner)) throw new Ask('a $ or backtick inside double quotes is only known when the shell runs');
  return doubleQuotedPart(inner);
}
