import type { Word } from './word.ts';

/** A path a command reads, as the program receives it. */
export interface ReadOperand {
  readonly path: string;
  /** The last component is a glob: `path` is the directory it lists, whose entries are checked too. */
  readonly glob?: boolean;
  /** The program walks the tree under it following every symlink (`grep -R`): each one there must lead inside the roots. */
  readonly walk?: boolean;
}

/** What one table entry says about one simple command. */
export type ProgramVerdict =
  | {
      readonly ok: true;
      readonly rule: string;
      /** Gate commands: every path operand, as the program receives it. */
      readonly writePaths?: readonly string[];
      /** Gate commands: entries the command would write through when they exist (`cp a dst/` writes `dst/a`). */
      readonly writeThrough?: readonly string[];
      /** cp -r: where each tree lands; copying into an existing tree writes through any symlink inside it. */
      readonly newTrees?: readonly string[];
      /** Gate commands: operands that are moved or removed, which must not hold a root. */
      readonly removedPaths?: readonly string[];
      /** Every path the command reads (files, directories it lists or walks). */
      readonly readPaths?: readonly ReadOperand[];
      /** git: the directory (relative to where the command runs) whose repository it reads, and the subcommand. */
      readonly git?: { readonly directory: string; readonly subcommand: string | undefined; readonly files?: readonly string[] };
      /** jq: program files (`-f`), read before the command runs to look for modules they load. */
      readonly jqPrograms?: readonly string[];
    }
  | { readonly ok: false; readonly reason: string };

export type ProgramCheck = (program: string, args: readonly Word[]) => ProgramVerdict;

export function refuse(reason: string): ProgramVerdict {
  return { ok: false, reason };
}
