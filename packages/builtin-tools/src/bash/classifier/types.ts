/** One simple command of a bash line, its words after quote removal. */
export interface ParsedCommand {
  readonly argv: readonly string[];
}

/** Which closed table let a command run on its own. */
export type ClassifierList = 'read_only' | 'filesystem_gate';

/** The classifier's decision for one command line, with the table entry that made it. */
export interface CommandClassification {
  readonly verdict: 'allow' | 'ask';
  readonly list: ClassifierList | null;
  /** `read_only:git log`, `filesystem_gate:mkdir`, or `ask`: the table entry, for the trace (seed §8). */
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

export interface ClassifyOptions {
  readonly mode: PermissionMode;
}

export interface CommandClassifier {
  /** Pure: the same command and mode always give the same classification. */
  classify(command: string, options: ClassifyOptions): CommandClassification;
}
