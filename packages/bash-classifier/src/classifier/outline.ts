import type { BashParser, SyntaxNode } from './syntax-tree.ts';
import type { CommandOutline } from './types.ts';

/** Redirection operators that open their file for writing. */
const WRITING = new Set(['>', '>>', '&>', '&>>', '>|', '<>', '>&', '&>|']);
/** Files a write to which changes nothing on the disk. */
const HARMLESS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);
/** Programs that run the program their first operand names. */
const WRAPPERS = new Set(['env', 'sudo', 'doas', 'xargs', 'nohup', 'exec', 'command', 'builtin', 'time', 'nice', 'ionice', 'timeout', 'stdbuf', 'setsid', 'chroot', 'unbuffer']);
/** Shells whose `-c` operand is another command line, outlined in turn. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'busybox']);
/** How deep `sh -c '…'` inside `sh -c '…'` is followed before the outline says it is incomplete. */
const MAX_DEPTH = 3;

/** A word as the person reads it: quotes around plain text removed, anything else as written. */
function shown(text: string): string {
  if (/^'[^']*'$/.test(text)) return text.slice(1, -1);
  if (/^"[^"\\$`]*"$/.test(text)) return text.slice(1, -1);
  return text;
}

interface Collected {
  programs: string[];
  writes: string[];
  complete: boolean;
}

function add(list: string[], value: string): void {
  if (value !== '' && !list.includes(value)) list.push(value);
}

function command(parser: BashParser, node: SyntaxNode, out: Collected, depth: number): void {
  const words = node.namedChildren.filter((child): child is SyntaxNode => child !== null && child.type !== 'variable_assignment' && !child.type.endsWith('redirect'));
  const [name, ...args] = words.map((word) => shown(word.text));
  if (name === undefined) return;
  add(out.programs, name);
  const program = name.split('/').at(-1) ?? name;
  if (WRAPPERS.has(program)) {
    const wrapped = args.find((arg) => !arg.startsWith('-') && !arg.includes('=') && !/^[\d.]+[smhd]?$/.test(arg));
    if (wrapped !== undefined) add(out.programs, wrapped);
  }
  const dashC = args.indexOf('-c');
  const script = dashC === -1 ? undefined : args[dashC + 1];
  if (SHELLS.has(program) && script !== undefined) {
    if (depth >= MAX_DEPTH) out.complete = false;
    else outlineLine(parser, script, out, depth + 1);
  }
}

function redirect(node: SyntaxNode, out: Collected): void {
  const operator = node.children.find((child) => child !== null && !child.isNamed)?.type;
  // The first destination is the file bash opens; any words after it are the command's arguments.
  const destination = node.childrenForFieldName('destination').find((child) => child !== null);
  if (operator === undefined || destination === undefined || !WRITING.has(operator)) return;
  if ((operator === '>&' || operator === '<&') && /^\d+-?$/.test(destination.text)) return;
  const target = shown(destination.text);
  if (!HARMLESS.has(target)) add(out.writes, target);
}

function walk(parser: BashParser, node: SyntaxNode, out: Collected, depth: number): void {
  if (node.type === 'ERROR' || node.isMissing) out.complete = false;
  if (node.type === 'command') command(parser, node, out, depth);
  if (node.type === 'file_redirect') redirect(node, out);
  for (const child of node.children) if (child !== null) walk(parser, child, out, depth);
}

function outlineLine(parser: BashParser, line: string, out: Collected, depth: number): void {
  const tree = parser.parse(line);
  if (tree === null) {
    out.complete = false;
    return;
  }
  try {
    walk(parser, tree.rootNode, out, depth);
  } finally {
    tree.delete();
  }
}

/**
 * What a person should see first of a long command line before approving
 * it: every program it names (in pipelines, substitutions, subshells,
 * function bodies, after `env`/`xargs`-like wrappers and inside `sh -c`)
 * and every file its redirections write. It is read from the syntax tree
 * without judging anything; the whole line is still shown after it.
 */
export function outlineTree(parser: BashParser, command: string): CommandOutline {
  const out: Collected = { programs: [], writes: [], complete: true };
  outlineLine(parser, command, out, 0);
  return out;
}
