import type { Word } from './word.ts';

/** What one table entry says about one simple command. */
export type ProgramVerdict =
  | {
      readonly ok: true;
      readonly rule: string;
      /** Gate commands: every path operand, as the program receives it. */
      readonly writePaths?: readonly string[];
      /** rm -r: its operands must not be a root. */
      readonly recursive?: boolean;
    }
  | { readonly ok: false; readonly reason: string };

export type ProgramCheck = (program: string, args: readonly Word[]) => ProgramVerdict;

export function refuse(reason: string): ProgramVerdict {
  return { ok: false, reason };
}
