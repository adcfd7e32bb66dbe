import type { Parser } from 'web-tree-sitter';
import { find } from './find.ts';
import { gate, GATE_PROGRAMS } from './gate.ts';
import { git } from './git.ts';
import { rg } from './rg.ts';
import { sed } from './sed.ts';
import { simplePrograms, withSpec } from './simple-programs.ts';
import { readSyntax } from './syntax.ts';
import type { SimpleCommand } from './syntax.ts';
import type { ClassifyOptions, CommandClassification, ParsedCommand } from './types.ts';
import { refuse } from './verdict.ts';
import type { ProgramCheck, ProgramVerdict } from './verdict.ts';
import { firstGlob, hasBraceExpansion } from './word.ts';

/** The closed read-only list (seed §8, permissions §2.3): program → its check. */
export const READ_ONLY_PROGRAMS: Readonly<Record<string, ProgramCheck>> = Object.freeze({
  ...simplePrograms,
  git,
  find,
  sed,
  rg,
  cd: withSpec({ short: 'LP' }, (scan) => (scan.operands.length > 1 ? 'cd takes one directory' : undefined)),
});

/** Longest command the classifier reads; a longer one asks. */
const MAX_COMMAND_CHARS = 16 * 1024;

function ask(reason: string, commands: readonly ParsedCommand[] = []): CommandClassification {
  return { verdict: 'ask', list: null, rule: 'ask', reason, commands, writePaths: [], recursivePaths: [] };
}

function checkCommand(command: SimpleCommand, options: ClassifyOptions): ProgramVerdict {
  const [name, ...args] = command.words;
  if (name === undefined) return refuse('the command has no program');
  for (const word of command.words) {
    if (hasBraceExpansion(word)) return refuse(`${JSON.stringify(word.value)} is a brace expansion, only known when the shell runs`);
  }
  // A quoted or escaped program name is still that program; a glob is not a name.
  if (firstGlob(name) !== -1) return refuse('the program name is a glob');
  for (const word of args) {
    if (firstGlob(word) === 0) return refuse(`${JSON.stringify(word.value)} starts with a glob, which can expand to a file name that reads as a flag; prefix it with ./`);
  }
  const program = name.value;
  const readOnly = Object.hasOwn(READ_ONLY_PROGRAMS, program) ? READ_ONLY_PROGRAMS[program] : undefined;
  if (readOnly !== undefined) return readOnly(program, args);
  if (GATE_PROGRAMS.has(program)) {
    if (options.mode !== 'acceptEdits') return refuse(`${program} changes files; it runs on its own only in acceptEdits mode`);
    return gate(program, args);
  }
  return refuse(`${program} is not on the read-only list${options.mode === 'acceptEdits' ? ' or the filesystem gate' : ''}`);
}

/** The classification of one command line, from its syntax tree. */
export function classifyTree(parser: Parser, command: string, options: ClassifyOptions): CommandClassification {
  if (command.length > MAX_COMMAND_CHARS) return ask(`the command is longer than ${MAX_COMMAND_CHARS} characters`);
  if (command.includes('\0')) return ask('the command contains a NUL character');
  const tree = parser.parse(command);
  if (tree === null) return ask('the parser could not read the command');
  try {
    const syntax = readSyntax(tree);
    const commands = syntax.commands.map((simple) => ({ argv: simple.words.map((word) => word.value) }));
    if (!syntax.ok) return ask(syntax.reason, commands);
    const rules: string[] = [];
    const writePaths: string[] = [];
    const recursivePaths: string[] = [];
    let usesGate = false;
    for (const simple of syntax.commands) {
      const verdict = checkCommand(simple, options);
      const text = simple.words.map((word) => word.value).join(' ');
      if (!verdict.ok) return ask(`${verdict.reason} (in ${JSON.stringify(text.slice(0, 80))})`, commands);
      if (!rules.includes(verdict.rule)) rules.push(verdict.rule);
      if (verdict.writePaths !== undefined) {
        usesGate = true;
        writePaths.push(...verdict.writePaths);
        if (verdict.recursive === true) recursivePaths.push(...verdict.writePaths);
      }
    }
    if (usesGate && syntax.commands.some((simple) => simple.words[0]?.value === 'cd')) {
      return ask('a cd in the same line moves where the filesystem command\'s paths point', commands);
    }
    return {
      verdict: 'allow',
      list: usesGate ? 'filesystem_gate' : 'read_only',
      rule: rules.join(', '),
      reason: usesGate
        ? 'every command is on the read-only list or the acceptEdits filesystem gate'
        : 'every command is on the read-only list with known-safe flags',
      commands,
      writePaths,
      recursivePaths,
    };
  } finally {
    tree.delete();
  }
}
