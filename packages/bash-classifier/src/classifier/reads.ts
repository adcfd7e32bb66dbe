import type { OptionScan } from './options.ts';
import type { ReadOperand } from './verdict.ts';
import { firstGlob } from './word.ts';
import type { Word } from './word.ts';

/**
 * Which words of a read-only command name the files and directories it
 * reads.
 */
export interface ReadSpec {
  /**
   * `all`: every operand is a path; `afterPattern`: the first operand is a
   * pattern, filter or script unless one of `patternFlags` gave it; `none`.
   */
  readonly operands: 'all' | 'afterPattern' | 'none';
  readonly patternFlags?: readonly string[];
  /** Flags after which every operand is a path even when no pattern was given (`rg --files`). */
  readonly pathsOnlyFlags?: readonly string[];
  /** Options whose value is a file the command reads. */
  readonly fileValues?: readonly string[];
}

export type ReadResult = { readonly ok: true; readonly paths: readonly ReadOperand[] } | { readonly ok: false; readonly reason: string };

/** A read operand as the path guard will check it: a glob is checked through the directory it lists. */
export function readOperand(program: string, word: Word): ReadResult {
  const glob = firstGlob(word);
  if (glob === -1) return { ok: true, paths: [{ path: word.value }] };
  // Only the last component may be a glob: the directory it lists is then one known path.
  if (word.value.indexOf('/', glob) !== -1) return { ok: false, reason: `${program} with a glob before the last / is not classified` };
  const slash = word.value.lastIndexOf('/', glob);
  return { ok: true, paths: [{ path: slash === -1 ? '.' : word.value.slice(0, slash) || '/', glob: true }] };
}

/** Every path the command reads, from its scanned options and operands. */
export function readPaths(program: string, args: readonly Word[], scan: Extract<OptionScan, { ok: true }>, spec: ReadSpec): ReadResult {
  const paths: ReadOperand[] = [];
  const add = (word: Word | undefined): string | undefined => {
    if (word === undefined) return undefined;
    const result = readOperand(program, word);
    if (!result.ok) return result.reason;
    paths.push(...result.paths);
    return undefined;
  };
  for (const option of scan.options) {
    if (spec.fileValues?.includes(option.name) !== true || option.valueIndex === undefined) continue;
    const word = args[option.valueIndex];
    // An attached value (`--file=x`, `-fx`) is the tail of its word.
    const value = option.value ?? '';
    const problem = add(word === undefined || word.value === value ? word : { value, unquoted: word.unquoted.slice(word.unquoted.length - value.length) });
    if (problem !== undefined) return { ok: false, reason: problem };
  }
  if (spec.operands === 'none') return { ok: true, paths };
  const named = (flags: readonly string[] | undefined) => scan.options.some((option) => flags?.includes(option.name) === true);
  const skipFirst = spec.operands === 'afterPattern' && !named(spec.patternFlags) && !named(spec.pathsOnlyFlags);
  for (const [position, index] of scan.operandIndexes.entries()) {
    if (skipFirst && position === 0) continue;
    const problem = add(args[index]);
    if (problem !== undefined) return { ok: false, reason: problem };
  }
  return { ok: true, paths };
}
