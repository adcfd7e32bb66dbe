import type { BashParser, SyntaxTree } from './syntax-tree.ts';
import { find } from './find.ts';
import { gate, GATE_PROGRAMS } from './gate.ts';
import { git } from './git.ts';
import { allowRuleHint, matchingAllowRule, ruleWords } from './allow-rules.ts';
import { readOperand } from './reads.ts';
import { rg } from './rg.ts';
import { editsInPlace, sed, sedInPlace } from './sed.ts';
import { simplePrograms, withSpec } from './simple-programs.ts';
import { readSyntax } from './syntax.ts';
import type { SimpleCommand } from './syntax.ts';
import type { ClassifyOptions, CommandClassification, GitInvocation, ParsedCommand, ReadPath } from './types.ts';
import { refuse } from './verdict.ts';
import type { ProgramCheck, ProgramVerdict } from './verdict.ts';
import { firstGlob, globProblem, hasBraceExpansion, hasGlob, hasTildeExpansion, hasUnquotedTilde } from './word.ts';
import type { Word } from './word.ts';

/** The closed read-only list (docs/design.md §8): program → its check. */
export const READ_ONLY_PROGRAMS: Readonly<Record<string, ProgramCheck>> = Object.freeze({
  ...simplePrograms,
  git,
  find,
  sed,
  rg,
  cd: withSpec(
    { short: 'L' },
    {
      extra: (scan) => {
        if (scan.operands.length === 0) return 'cd without a directory goes to the home directory';
        if (scan.operands.length > 1) return 'cd takes one directory';
        return scan.operands[0] === '-' ? 'cd - goes back to a directory the classifier does not know' : undefined;
      },
      reads: { operands: 'all' },
    },
  ),
});

/** Longest command the classifier reads; a longer one asks. */
const MAX_COMMAND_CHARS = 16 * 1024;
/** Directories a line may be in after its cds, before it asks. */
const MAX_BASES = 8;

function ask(reason: string, commands: readonly ParsedCommand[] = []): CommandClassification {
  return { verdict: 'ask', list: null, rule: 'ask', reason, commands, writePaths: [], recursivePaths: [], writeThrough: [], newTrees: [], readPaths: [], git: [], jqPrograms: [] };
}

/**
 * The table's verdict for one simple command; a refusal says what would make
 * it run when it does not yet: the allow rule for its first words, which
 * covers the program with every argument (docs/contract.md §4.3).
 */
function checkCommand(command: SimpleCommand, options: ClassifyOptions): ProgramVerdict & { readonly allowRule?: true } {
  const verdict = checkProgram(command, options);
  if (verdict.ok || /would let it run|only in acceptEdits mode/.test(verdict.reason)) return verdict;
  const words = ruleWords(command.words);
  return words === undefined ? verdict : refuse(`${verdict.reason}; ${allowRuleHint(words)}`);
}

function checkProgram(command: SimpleCommand, options: ClassifyOptions): ProgramVerdict & { readonly allowRule?: true } {
  const [name, ...args] = command.words;
  if (name === undefined) return refuse('the command has no program');
  // A person's rule covers the program and every argument after its prefix; the line's syntax was checked already.
  const rule = matchingAllowRule(command.words, options.allowRules ?? []);
  if (rule !== undefined) return { ok: true, rule: rule.name, allowRule: true };
  for (const word of command.words) {
    if (hasBraceExpansion(word)) return refuse(`${JSON.stringify(word.value)} is a brace expansion, only known when the shell runs`);
    if (hasTildeExpansion(word)) return refuse(`${JSON.stringify(word.value)} has a ~ that the shell expands to a home directory; write the path out`);
  }
  // A quoted or escaped program name is still that program; a glob is not a name.
  if (firstGlob(name) !== -1) return refuse('the program name is a glob');
  for (const word of [...args, ...command.inputs]) {
    const problem = globProblem(word);
    if (problem !== undefined) return refuse(problem);
  }
  const program = name.value;
  if (program === 'sed' && editsInPlace(args)) {
    if (options.mode !== 'acceptEdits') return refuse('sed -i edits files in place; it runs on its own only in acceptEdits mode');
    return sedInPlace(program, args);
  }
  const readOnly = Object.hasOwn(READ_ONLY_PROGRAMS, program) ? READ_ONLY_PROGRAMS[program] : undefined;
  if (readOnly !== undefined) return readOnly(program, args);
  if (GATE_PROGRAMS.has(program)) {
    if (options.mode !== 'acceptEdits') return refuse(`${program} changes files; it runs on its own only in acceptEdits mode`);
    return gate(program, args);
  }
  return refuse(`${program} is not on the read-only list${options.mode === 'acceptEdits' ? ' or the filesystem gate' : ''}`);
}

/** Why bash might write elsewhere than the redirect's word says: it expands a glob, a ~ or braces in the target. */
function outputProblem(target: Word): string | undefined {
  if (target.value === '') return 'an empty target is not classified';
  if (hasGlob(target)) return 'a glob in the target is only known when the shell runs';
  if (hasUnquotedTilde(target) || hasBraceExpansion(target)) return 'a ~ or brace in the target is only known when the shell runs; write the path out';
  return undefined;
}

/** The first control character other than tab and newline (CR, VT, FF…), which tree-sitter reads as a blank and bash does not. */
function firstControl(command: string): string | undefined {
  for (const char of command) {
    const code = char.codePointAt(0) ?? 0;
    if ((code < 0x20 && char !== '\t' && char !== '\n') || code === 0x7f) return char;
  }
  return undefined;
}
/**
 * A backslash right before a blank or a newline, outside single quotes: a
 * line continuation joins two words into one for bash (`git log -\⏎-output=x`
 * is `--output=x`) and an escaped blank makes one word of two, where the
 * syntax tree may split or join them otherwise. Either changes which
 * arguments the program gets, so the line asks; quoting says the same
 * without the doubt. Even inside single quotes, where it changes nothing:
 * a quote the scan would follow may be one bash never sees (in a comment).
 */
function escapedWhitespace(command: string): string | undefined {
  // Quotes are not followed: a quote inside a comment, or one the parser reads differently, must not hide a continuation.
  const found = /\\[\n\r\t ]/.exec(command);
  if (found === null) return undefined;
  return found[0] === '\\\n'
    ? 'a backslash at the end of a line joins the next line to the word before it, which bash and the classifier may split differently; write the command on one line'
    : 'a backslash before a blank makes one word of two, which bash and the classifier may read differently; quote the word instead';
}

/** What may stand right before a `#` that starts a comment, unescaped, for bash to agree it is one. */
const COMMENT_BEFORE = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')']);

/**
 * tree-sitter and bash disagree on some comments (`x\⏎#; touch P` is a
 * comment to one and a command to the other): every comment must start
 * where bash would start one too, or the line asks.
 */
function misplacedComment(tree: SyntaxTree, command: string): string | undefined {
  for (const node of tree.rootNode.descendantsOfType('comment')) {
    if (node === null) continue;
    const start = command.indexOf(node.text, Math.max(0, node.startIndex - 1));
    if (start !== node.startIndex) return `the comment ${JSON.stringify(node.text.slice(0, 20))} could not be placed in the command`;
    if (start === 0) continue;
    const before = command[start - 1] ?? '';
    let backslashes = 0;
    while (command[start - 2 - backslashes] === '\\') backslashes += 1;
    if (!COMMENT_BEFORE.has(before) || backslashes % 2 === 1) {
      return `the # at ${start} follows ${JSON.stringify(command.slice(Math.max(0, start - 2), start))}, where bash may not start a comment`;
    }
  }
  return undefined;
}

/**
 * Where `path` is, seen from one of the directories cd may have reached.
 * The program opens it physically while the guard normalizes `..`
 * lexically: a `..` after another component, or any after a cd, could climb
 * out of a symlinked directory, so it asks.
 */
function fromBase(base: string, path: string, what: string): { path: string } | { problem: string } {
  const parts = path.split('/');
  const firstName = parts.findIndex((part) => part !== '..' && part !== '.' && part !== '');
  const climbsLate = firstName !== -1 && parts.slice(firstName).includes('..');
  if (climbsLate || (path.startsWith('/') && parts.includes('..')) || (base !== '.' && parts.includes('..'))) {
    return { problem: `${what} ${JSON.stringify(path)} has a .. that the program resolves from wherever a symlink before it leads; write the path without it` };
  }
  if (path.startsWith('/') || base === '.') return { path };
  return { path: `${base}/${path}` };
}

/** The classification of one command line, from its syntax tree. */
export function classifyTree(parser: BashParser, command: string, options: ClassifyOptions): CommandClassification {
  if (command.length > MAX_COMMAND_CHARS) return ask(`the command is longer than ${MAX_COMMAND_CHARS} characters`);
  if (command.includes('\0')) return ask('the command contains a NUL character');
  const control = firstControl(command);
  if (control !== undefined) {
    return ask(`the command contains the control character U+${(control.codePointAt(0) ?? 0).toString(16).padStart(4, '0').toUpperCase()}, which bash and the classifier may read differently`);
  }
  const escapedBlank = escapedWhitespace(command);
  if (escapedBlank !== undefined) return ask(escapedBlank);
  const tree = parser.parse(command);
  if (tree === null) return ask('the parser could not read the command');
  try {
    const syntax = readSyntax(tree);
    const commands = syntax.commands.map((simple) => ({ argv: simple.words.map((word) => word.value), redirections: simple.redirections }));
    if (!syntax.ok) return ask(syntax.reason, commands);
    const comment = misplacedComment(tree, command);
    if (comment !== undefined) return ask(comment, commands);
    const rules: string[] = [];
    const writePaths: string[] = [];
    const writeThrough: string[] = [];
    const newTrees: string[] = [];
    const recursivePaths: string[] = [];
    const readPaths: ReadPath[] = [];
    const gitInvocations: GitInvocation[] = [];
    const jqPrograms: string[] = [];
    let bases: string[] = ['.'];
    let usesGate = false;
    let usesAllowRule = false;
    let copiedOrMoved = false;
    for (const simple of syntax.commands) {
      const verdict = checkCommand(simple, options);
      const text = simple.words.map((word) => word.value).join(' ');
      const refused = (reason: string) => ask(`${reason} (in ${JSON.stringify(text.slice(0, 80))})`, commands);
      if (!verdict.ok) return refused(verdict.reason);
      if (!rules.includes(verdict.rule)) rules.push(verdict.rule);
      if ('allowRule' in verdict) usesAllowRule = true;
      const reads = [...(verdict.readPaths ?? [])];
      for (const input of simple.inputs) {
        const operand = readOperand('a < redirect', input);
        if (!operand.ok) return refused(operand.reason);
        if (operand.paths.some((path) => path.glob === true)) return refused('a glob in a < redirect is only known when the shell runs');
        reads.push(...operand.paths);
      }
      // A copy can bring a symlink (cp -r copies them as they are) to where a later read in the line goes through it.
      if (copiedOrMoved && (reads.length > 0 || verdict.git !== undefined)) {
        return refused('a command after a cp or mv in the same line may read through what that one just made; run them one at a time');
      }
      for (const base of bases) {
        for (const read of reads) {
          const located = fromBase(base, read.path, 'the path');
          if ('problem' in located) return refused(located.problem);
          readPaths.push({ path: located.path, ...(read.glob === true ? { glob: true } : {}), ...(read.walk === true ? { walk: true } : {}) });
        }
        if (verdict.git !== undefined) {
          const located = fromBase(base, verdict.git.directory, 'git -C');
          if ('problem' in located) return refused(located.problem);
          gitInvocations.push({ directory: located.path, subcommand: verdict.git.subcommand, ...(verdict.git.files === undefined ? {} : { files: verdict.git.files }) });
        }
        for (const program of verdict.jqPrograms ?? []) {
          const located = fromBase(base, program, 'the jq program');
          if ('problem' in located) return refused(located.problem);
          jqPrograms.push(located.path);
        }
      }
      if (simple.outputs.length > 0) {
        if (options.mode !== 'acceptEdits') {
          const first = simple.outputs[0]?.text ?? '';
          return refused(`the redirect ${JSON.stringify(first.slice(0, 60))} may write a file; it runs on its own only in acceptEdits mode, where the gate checks its target`);
        }
        if (copiedOrMoved) return refused('a redirect after a cp or mv in the same line may write through what that one just made; run them one at a time');
        for (const output of simple.outputs) {
          const problem = outputProblem(output.target);
          if (problem !== undefined) return refused(`the redirect ${JSON.stringify(output.text.slice(0, 60))}: ${problem}`);
          const located = fromBase('.', output.target.value, 'the redirect target');
          if ('problem' in located) return refused(located.problem);
          writePaths.push(located.path);
        }
        usesGate = true;
        if (!rules.includes('filesystem_gate:>')) rules.push('filesystem_gate:>');
      }
      if (verdict.writePaths !== undefined) {
        // Every path is checked against the tree as it is before the line runs: a cp or mv may put a symlink (copied as one)
        // where a later command of the same line then writes, removes or copies through it.
        if (copiedOrMoved) return refused('a command after a cp or mv in the same line may act through what that one just made; run them one at a time');
        const program = simple.words[0]?.value;
        if (program === 'cp' || program === 'mv') copiedOrMoved = true;
        usesGate = true;
        for (const [list, paths] of [
          [writePaths, verdict.writePaths],
          [writeThrough, verdict.writeThrough ?? []],
          [newTrees, verdict.newTrees ?? []],
          [recursivePaths, verdict.removedPaths ?? []],
        ] as const) {
          for (const path of paths) {
            const located = fromBase('.', path, 'the path');
            if ('problem' in located) return refused(located.problem);
            list.push(located.path);
          }
        }
      }
      if (simple.words[0]?.value === 'cd') {
        // cd may fail or not run (||, a pipeline's subshell): later paths are checked from every directory it may leave.
        const targetWord = simple.words.at(-1);
        const target = targetWord?.value ?? '.';
        // Later commands (git above all, whose repository's configuration is checked) are judged from where cd goes: that must be known.
        if (targetWord !== undefined && hasGlob(targetWord)) return refused(`cd ${target}: a glob in the directory is only known when bash expands it; name the directory`);
        const next = new Set(bases);
        for (const base of bases) {
          const located = fromBase(base, target, 'cd');
          if ('problem' in located) return refused(located.problem);
          next.add(located.path);
        }
        bases = [...next];
        if (bases.length > MAX_BASES) return refused(`more than ${MAX_BASES} cd targets in one line are not classified`);
      }
    }
    if (usesGate && bases.length > 1) {
      return ask('a cd in the same line moves where the filesystem command\'s paths point', commands);
    }
    return {
      verdict: 'allow',
      // The rule a person wrote is what lets such a line run, whatever else is in it.
      list: usesAllowRule ? 'allow_rule' : usesGate ? 'filesystem_gate' : 'read_only',
      rule: rules.join(', '),
      reason: usesAllowRule
        ? `every command matches an allow rule or is on the read-only list${usesGate ? ' or the acceptEdits filesystem gate' : ''}`
        : usesGate
          ? 'every command is on the read-only list or the acceptEdits filesystem gate'
          : 'every command is on the read-only list with known-safe flags',
      commands,
      writePaths,
      writeThrough,
      newTrees,
      recursivePaths,
      readPaths,
      git: gitInvocations,
      jqPrograms,
    };
  } finally {
    tree.delete();
  }
}
