import { scanOptions } from './options.ts';
import type { OptionSpec } from './options.ts';
import { firstGlob, hasBraceExpansion, hasUnquotedTilde } from './word.ts';
import type { Word } from './word.ts';
import { refuse } from './verdict.ts';
import type { ProgramCheck, ProgramVerdict } from './verdict.ts';

interface GateSpec extends OptionSpec {
  /** Options whose value is a path the command writes into (`-t DIR`). */
  readonly pathValues?: readonly string[];
  /** May an operand end in a glob (`rm *.o`)? Only where the program never follows what the glob matched. */
  readonly globOperands?: boolean;
  /** Flags with which the operands may be directories that are removed (`rm -r`, `rm -d`). */
  readonly recursiveFlags?: readonly string[];
  /** Copies: an operand's file is written at `destination/<name>`, through whatever is there. */
  readonly copies?: boolean;
  /** Moves: the sources leave where they are, so none may hold a root. */
  readonly moves?: boolean;
}

const SPECS: Readonly<Record<string, GateSpec>> = {
  mkdir: {
    short: 'pv',
    shortValue: 'm',
    long: ['parents', 'verbose'],
    longValue: ['mode'],
  },
  touch: {
    short: 'acm',
    shortValue: 'dt',
    long: ['no-create'],
    longValue: ['date'],
    denied: { '-r': 'touch -r reads a reference file, which is not classified', '--reference': 'touch --reference is not classified', '-h': 'touch -h is not classified' },
  },
  cp: {
    short: 'rRafinpvuPdT',
    shortValue: 't',
    long: ['recursive', 'archive', 'force', 'interactive', 'no-clobber', 'verbose', 'update', 'no-dereference', 'no-target-directory', 'preserve', 'strip-trailing-slashes'],
    longValue: ['target-directory'],
    pathValues: ['-t', '--target-directory'],
    copies: true,
    denied: {
      '-L': 'cp -L follows symlinks in what it copies, which can lead outside the roots',
      '--dereference': 'cp --dereference follows symlinks in what it copies, which can lead outside the roots',
      '-l': 'cp -l makes hard links, through which a file outside the roots could later be changed',
      '--link': 'cp --link makes hard links',
      '-s': 'cp -s makes symbolic links',
      '--symbolic-link': 'cp --symbolic-link makes symbolic links',
      '--parents': 'cp --parents is not classified',
      '-b': 'cp -b is not classified',
      '--backup': 'cp --backup is not classified',
      '-S': 'cp -S is not classified',
      '--suffix': 'cp --suffix is not classified',
    },
  },
  mv: {
    short: 'finvuT',
    shortValue: 't',
    long: ['force', 'interactive', 'no-clobber', 'verbose', 'update', 'no-target-directory', 'strip-trailing-slashes'],
    longValue: ['target-directory'],
    pathValues: ['-t', '--target-directory'],
    moves: true,
    denied: { '-b': 'mv -b is not classified', '--backup': 'mv --backup is not classified', '-S': 'mv -S is not classified', '--suffix': 'mv --suffix is not classified' },
  },
  rm: {
    short: 'frRdivI',
    long: ['force', 'recursive', 'dir', 'interactive', 'verbose', 'one-file-system', 'preserve-root'],
    globOperands: true,
    recursiveFlags: ['-r', '-R', '--recursive', '-d', '--dir'],
    denied: { '--no-preserve-root': 'rm --no-preserve-root is never run on its own' },
  },
};

function operandProblem(program: string, word: Word, globs: boolean): string | undefined {
  if (word.value === '') return `${program} with an empty operand is not classified`;
  if (hasUnquotedTilde(word)) return `${program} with ~ is only known when the shell runs; write the path out`;
  if (hasBraceExpansion(word)) return `${program} with brace expansion is only known when the shell runs`;
  const glob = firstGlob(word);
  if (glob === -1) return undefined;
  if (!globs) return `${program} with a glob is only known when the shell runs`;
  // The glob may only be in the last component: the directory it lists is then checked.
  if (word.value.indexOf('/', glob) !== -1) return `${program} with a glob before the last / is not classified`;
  // A glob at the start of the word can expand to a file called -rf.
  if (glob === 0) return `${program} with a glob at the start of an operand can expand to a flag; prefix it with ./`;
  return undefined;
}

/** The directory a glob operand lists, or the operand itself. */
function pathOf(word: Word): string {
  const glob = firstGlob(word);
  if (glob === -1) return word.value;
  const slash = word.value.lastIndexOf('/', glob);
  return slash === -1 ? '.' : word.value.slice(0, slash) || '/';
}

/**
 * The acceptEdits filesystem gate (docs/design.md §8): mkdir,
 * touch, cp, mv and rm with known flags; the paths they touch are returned
 * for the path guard to check against the writable roots.
 */
export const gate: ProgramCheck = (program, args): ProgramVerdict => {
  const spec = SPECS[program];
  if (spec === undefined) return refuse(`${program} is not on the filesystem gate`);
  const scan = scanOptions(
    program,
    args.map((arg) => arg.value),
    spec,
  );
  if (!scan.ok) return refuse(scan.reason);
  const operands: string[] = [];
  for (const index of scan.operandIndexes) {
    const word = args[index] ?? { value: '', unquoted: '' };
    const problem = operandProblem(program, word, spec.globOperands === true);
    if (problem !== undefined) return refuse(problem);
    operands.push(pathOf(word));
  }
  const targets: string[] = [];
  for (const option of scan.options) {
    if (spec.pathValues?.includes(option.name) !== true || option.value === undefined) continue;
    // The value is checked as if unquoted: a quoted ~ or glob in a target directory is refused too.
    const problem = operandProblem(program, { value: option.value, unquoted: option.value }, false);
    if (problem !== undefined) return refuse(problem);
    targets.push(option.value);
  }
  const paths = [...operands, ...targets];
  if (paths.length === 0) return refuse(`${program} without an operand is not classified`);
  const has = (names: readonly string[] | undefined) => scan.options.some((option) => names?.includes(option.name) === true);
  const recursive = has(spec.recursiveFlags);
  // Where cp and mv put things: -t DIR, else the last operand; -T names the destination itself.
  const destination = targets[0] ?? (operands.length > 1 ? operands.at(-1) : undefined);
  const sources = targets.length > 0 ? operands : operands.slice(0, -1);
  const intoDirectory = destination !== undefined && !has(['-T', '--no-target-directory']);
  const writeThrough =
    spec.copies === true && intoDirectory ? sources.map((source) => `${destination.replace(/\/+$/, '')}/${source.replace(/\/+$/, '').split('/').at(-1) ?? ''}`) : [];
  const removedPaths = spec.moves === true ? sources : recursive ? operands : [];
  const copiesTrees = spec.copies === true && has(['-r', '-R', '--recursive', '-a', '--archive']);
  // cp -rT merges the tree into the destination's own entries, which may be symlinks out of the roots: not one path the guard can check.
  if (copiesTrees && !intoDirectory && destination !== undefined) return refuse(`${program} -T with a recursive copy writes into whatever entries ${destination} already holds, symlinks included`);
  return {
    ok: true,
    rule: `filesystem_gate:${program}`,
    writePaths: paths,
    writeThrough,
    ...(copiesTrees ? { newTrees: writeThrough } : {}),
    removedPaths,
  };
};

export const GATE_PROGRAMS: ReadonlySet<string> = new Set(Object.keys(SPECS));
