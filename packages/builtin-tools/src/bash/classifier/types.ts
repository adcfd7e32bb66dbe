/** One simple command of a bash line, its words after quote removal. */
export interface ParsedCommand {
  readonly argv: readonly string[];
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
}

/** A path a command reads; with `glob`, the directory whose entries a glob in it expands to. */
export interface ReadPath {
  readonly path: string;
  readonly glob?: boolean;
}

export interface GitInvocation {
  readonly directory: string;
  readonly subcommand: string | undefined;
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

export interface CommandClassifier {
  /** Pure: the same command and mode always give the same classification. */
  classify(command: string, options: ClassifyOptions): CommandClassification;
}
