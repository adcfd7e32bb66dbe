import { scanOptions } from './options.ts';
import type { OptionSpec } from './options.ts';
import { readPaths } from './reads.ts';
import { refuse } from './verdict.ts';
import type { ProgramCheck } from './verdict.ts';
import { hasGlob } from './word.ts';

/**
 * What in a jq program reads another file: `import` and `include` load
 * modules and JSON data from a search path the program itself can name
 * (`{search: "/anywhere"}`, or a module name with `../` in it), and
 * `modulemeta` loads a module to describe it.
 */
export const JQ_LOADS_FILES = /\b(import|include|modulemeta)\b/;

const spec: OptionSpec = {
  short: 'nrjacCMsSeRf',
  long: [
    'null-input', 'raw-input', 'slurp', 'raw-output', 'raw-output0', 'join-output', 'ascii-output', 'compact-output', 'color-output',
    'monochrome-output', 'sort-keys', 'exit-status', 'tab', 'seq', 'stream', 'stream-errors', 'unbuffered', 'args', 'jsonargs', 'help',
    'version', 'from-file',
  ],
  longValue: ['indent'],
  longTwoValues: ['arg', 'argjson', 'slurpfile', 'rawfile'],
  denied: {
    '-L': 'jq -L adds a library directory that import and include read from',
    '--library-path': 'jq --library-path adds a library directory that import and include read from',
  },
};

const FROM_FILE = new Set(['-f', '--from-file']);
/** A word that holds the -f flag, and one that ends with it. */
const FROM_FILE_WORD = /^(--from-file$|-[^-]*f)/;
const FROM_FILE_LAST = /^(--from-file|-[^-]*f)$/;

/**
 * jq with known-safe flags. `-f` is a flag (jq 1.7 and before): the program
 * is then the file named by the first operand, which is read before the
 * command runs to make sure it loads no module; an inline program is
 * looked at here.
 */
export const jq: ProgramCheck = (program, args) => {
  const values = args.map((arg) => arg.value);
  const scan = scanOptions(program, values, spec);
  if (!scan.ok) return refuse(scan.reason);
  const fromFile = scan.options.some((option) => FROM_FILE.has(option.name));
  const first = scan.operandIndexes[0];
  const programWord = first === undefined ? undefined : args[first];
  const jqPrograms: string[] = [];
  if (fromFile) {
    if (first === undefined || programWord === undefined) return refuse(`${program} -f expects a program file`);
    // Whether -f takes the next word or the first operand, the two must be the same word, named once.
    const flagWords = values.filter((value, index) => !scan.operandIndexes.includes(index) && FROM_FILE_WORD.test(value));
    if (flagWords.length !== 1 || !FROM_FILE_LAST.test(values[first - 1] ?? '')) {
      return refuse(`${program}: write -f (or --from-file) once, right before the program file`);
    }
    if (hasGlob(programWord)) return refuse(`${program} -f ${programWord.value}: a glob in the program file is only known when bash expands it`);
    jqPrograms.push(programWord.value);
  } else if (programWord !== undefined && JQ_LOADS_FILES.test(programWord.value)) {
    return refuse('a jq program with import, include or modulemeta loads modules from directories the program itself can name');
  }
  // --rawfile and --slurpfile read the file named by their second value.
  const reads = readPaths(program, args, scan, {
    operands: fromFile ? 'all' : 'afterPattern',
    fileValues: ['--rawfile', '--slurpfile'],
  });
  if (!reads.ok) return refuse(reads.reason);
  return { ok: true, rule: `read_only:${program}`, readPaths: reads.paths, ...(jqPrograms.length === 0 ? {} : { jqPrograms }) };
};
