import type { Redirection } from './redirects.ts';

/** One simple command of a bash line, its words after quote removal. */
export interface ParsedCommand {
  readonly argv: readonly string[];
  /** Its redirections as bash applies them, after the words: descriptor, operator, target. */
  readonly redirections: readonly Redirection[];
}

/**
 * Which table let a command run: the closed read-only list, the acceptEdits
 * gate, or an allow rule a person wrote (which approves the line in advance).
 */
export type ClassifierList = 'read_only' | 'filesystem_gate' | 'allow_rule';

/** The classifier's decision for one command line, with the table entry that made it. */
export interface CommandClassification {
  readonly verdict: 'allow' | 'ask';
  readonly list: ClassifierList | null;
  /** `read_only:git log`, `filesystem_gate:mkdir`, an allow rule's name, or `ask`: the table entry, for the trace (docs/design.md §8). */
  readonly rule: string;
  /** Why it runs on its own, or the first thing that made it ask. */
  readonly reason: string;
  readonly commands: readonly ParsedCommand[];
  /** Every path operand of every gate command, as the program receives it; empty unless the gate allowed it. */
  readonly writePaths: readonly string[];
  /** The operands of an `rm -r` and the sources of an `mv`, which must not be or hold a root. */
  readonly recursivePaths: readonly string[];
  /** Entries a copy writes through when they exist (`cp a dst/` writes `dst/a`, following a symlink there). */
  readonly writeThrough: readonly string[];
  /** Where a `cp -r` puts each tree (`dst/<name>`): it asks when one exists already. */
  readonly newTrees: readonly string[];
  /** Every path an allowed command reads, relative to the working directory, for the path guard. */
  readonly readPaths: readonly ReadPath[];
  /** Every git command: the directory whose repository it reads, and its subcommand. */
  readonly git: readonly GitInvocation[];
  /** jq program files (`-f`), relative to the working directory: one that loads a module (import, include) asks. */
  readonly jqPrograms: readonly string[];
}

/** A path a command reads; with `glob`, the directory whose entries a glob in it expands to. */
export interface ReadPath {
  readonly path: string;
  readonly glob?: boolean;
  /** The program follows every symlink under it while it walks (`grep -R`). */
  readonly walk?: boolean;
}

export interface GitInvocation {
  readonly directory: string;
  readonly subcommand: string | undefined;
  /**
   * Values of options that name a file git reads (`blame --contents`, `-S`,
   * `--ignore-revs-file`), as written: git resolves some from the top of
   * the work tree rather than from where it starts, so both are checked.
   */
  readonly files?: readonly string[];
}

export type PermissionMode = 'default' | 'acceptEdits' | 'readOnly';

/**
 * A command prefix a person allowed (`--allow 'bash:npm test'`): a simple
 * command whose first words are `prefix`, each a literal word, matches.
 */
export interface CommandAllowRule {
  /** What a decision's rule says when this one matched, e.g. `allow:bash:npm test`. */
  readonly name: string;
  readonly prefix: readonly string[];
}

export interface ClassifyOptions {
  readonly mode: PermissionMode;
  /** Simple commands that start with one of these prefixes count as allowed; the rest of the line is classified as usual. */
  readonly allowRules?: readonly CommandAllowRule[];
}

/** What a command line runs and writes, as listed for a person before they approve it. */
export interface CommandOutline {
  /** Every program the line names, each once, in order. */
  readonly programs: readonly string[];
  /** Every file a redirection of the line writes, as written (`/dev/null` left out). */
  readonly writes: readonly string[];
  /** False when the parser could not read all of the line: the lists may miss something. */
  readonly complete: boolean;
}

export interface CommandClassifier {
  /** Pure: the same command and mode always give the same classification. */
  classify(command: string, options: ClassifyOptions): CommandClassification;
  /** The programs and written files of a line, for the person asked to approve it; judges nothing. */
  outline(command: string): CommandOutline;
}
