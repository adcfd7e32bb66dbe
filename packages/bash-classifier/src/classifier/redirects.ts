import type { SyntaxNode } from './syntax-tree.ts';
import type { Word } from './word.ts';

/** One redirection of a simple command as bash applies it: descriptor, operator and target after quote removal. */
export interface Redirection {
  /** The descriptor it opens or duplicates onto; absent for `&>` and `&>>`, which set both stdout and stderr. */
  readonly descriptor?: number;
  readonly operator: string;
  readonly target: string;
}

/** What a redirect node means: the redirection, then the words tree-sitter hung on it that are the command's arguments. */
export interface RedirectReading {
  readonly redirection: Redirection;
  readonly targetWord: Word;
  /** `> f a b` is one node with three destinations for tree-sitter; to bash, `a b` are arguments of the command. */
  readonly trailing: readonly SyntaxNode[];
}

export class RedirectAsk extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** The largest descriptor bash reads as one (a C int); a longer run of digits before `>` is an ordinary word to bash. */
const MAX_DESCRIPTOR = 2_147_483_647;

/** A word bash reads as the descriptor of the redirect right after it (`2>f`, `10<f`): unquoted digits, nothing between them. */
export function isDescriptorWord(node: SyntaxNode, next: SyntaxNode): boolean {
  return next.type === 'file_redirect' && node.endIndex === next.startIndex && /^\d+$/.test(node.text) && /^[<>]/.test(operatorOf(next) ?? '');
}

/** `{name}>f`: bash opens a new descriptor and stores its number in the variable. */
export function isVariableDescriptor(node: SyntaxNode, next: SyntaxNode): boolean {
  return next.type === 'file_redirect' && node.endIndex === next.startIndex && /^\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(node.text);
}

export function descriptorNumber(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value > MAX_DESCRIPTOR) throw new RedirectAsk(`the descriptor ${text.slice(0, 20)} is too large for bash to read it as one`);
  return value;
}

export function operatorOf(node: SyntaxNode): string | undefined {
  return node.children.find((child) => child !== null && !child.isNamed)?.type;
}

/** The descriptor an operator acts on when none is written: input operators 0, output operators 1. */
function defaultDescriptor(operator: string): number | undefined {
  if (operator.startsWith('&')) return undefined;
  return operator.startsWith('<') ? 0 : 1;
}

/**
 * Reads one `file_redirect` node. `written` is a descriptor from a digit
 * word right before the node, which tree-sitter reads as an argument.
 */
export function readRedirect(node: SyntaxNode, written: number | undefined, read: (node: SyntaxNode) => Word): RedirectReading {
  let operator: string | undefined;
  let descriptor = written;
  const destinations: SyntaxNode[] = [];
  node.children.forEach((child, index) => {
    if (child === null) return;
    const field = node.fieldNameForChild(index);
    if (field === 'descriptor') descriptor = descriptorNumber(child.text);
    else if (field === 'destination') destinations.push(child);
    else if (!child.isNamed && operator === undefined) operator = child.type;
    else throw new RedirectAsk(`the redirect ${JSON.stringify(node.text.slice(0, 40))} is not classified`);
  });
  const [destination, ...trailing] = destinations;
  if (operator === undefined || destination === undefined) throw new RedirectAsk(`the redirect ${JSON.stringify(node.text.slice(0, 40))} is not classified`);
  const targetWord = read(destination);
  const fd = descriptor ?? defaultDescriptor(operator);
  return { redirection: { ...(fd === undefined ? {} : { descriptor: fd }), operator, target: targetWord.value }, targetWord, trailing };
}

/** Why a redirection may change a file, or undefined: only reads, duplications and writes to /dev/null pass. */
export function redirectionProblem(redirection: Redirection, text: string): string | undefined {
  const { operator, target } = redirection;
  if (operator === '<') return undefined;
  if ((operator === '>&' || operator === '<&') && /^\d+$/.test(target)) return undefined;
  if (['>', '>>', '&>', '&>>', '>|'].includes(operator) && target === '/dev/null') return undefined;
  return `the redirect ${JSON.stringify(text.slice(0, 60))} may write a file`;
}
