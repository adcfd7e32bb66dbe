import { scanOptions } from './options.ts';
import { readOperand } from './reads.ts';
import { refuse } from './verdict.ts';
import { hasGlob } from './word.ts';
import type { ProgramCheck, ProgramVerdict, ReadOperand } from './verdict.ts';
import type { Word } from './word.ts';

const SPEC = {
  short: 'nrEsuz',
  shortValue: 'el',
  long: ['quiet', 'silent', 'regexp-extended', 'separate', 'unbuffered', 'null-data', 'posix', 'debug', 'sandbox', 'help', 'version'],
  longValue: ['expression', 'line-length'],
  denied: {
    '-i': 'sed -i edits files in place',
    '--in-place': 'sed --in-place edits files in place',
    '-f': 'sed -f reads a script this classifier cannot see',
    '--file': 'sed --file reads a script this classifier cannot see',
  },
};

/** Commands that only print or move through the input. */
const PLAIN_COMMANDS = new Set(['p', 'P', 'd', 'D', 'n', 'N', 'q', 'Q', '=', 'l', 'g', 'G', 'h', 'H', 'x', 'z', '{', '}']);

/**
 * Reads a sed script closely enough to find every command: addresses, then
 * a command; `s` and `y` with their delimited parts. A command that writes
 * (w, W, s///w), reads (r, R) or runs (e, s///e) a file asks, and so does
 * anything not read here.
 */
export function sedScriptProblem(script: string): string | undefined {
  let position = 0;
  const at = () => script[position] ?? '';
  const skipBlank = () => {
    while (position < script.length && /[\s;]/.test(at())) position += 1;
  };
  const delimited = (delimiter: string): boolean => {
    while (position < script.length) {
      const char = at();
      if (char === '\\') position += 2;
      else if (char === delimiter) {
        position += 1;
        return true;
      } else if (char === '\n') return false;
      else position += 1;
    }
    return false;
  };
  const address = (): boolean => {
    if (/[0-9]/.test(at())) {
      while (/[0-9~]/.test(at())) position += 1;
      return true;
    }
    if (at() === '$') {
      position += 1;
      return true;
    }
    if (at() === '/' || at() === '\\') {
      let delimiter = '/';
      if (at() === '\\') {
        position += 1;
        delimiter = at();
      }
      position += 1;
      if (!delimited(delimiter)) return false;
      while (/[IM]/.test(at())) position += 1;
      return true;
    }
    return true;
  };
  skipBlank();
  while (position < script.length) {
    if (!address()) return 'sed: an address is not terminated';
    if (at() === ',') {
      position += 1;
      if (at() === '+' || at() === '~') position += 1;
      if (!address()) return 'sed: an address is not terminated';
    }
    while (at() === ' ' || at() === '!') position += 1;
    const command = at();
    position += 1;
    if (command === 's' || command === 'y') {
      const delimiter = at();
      if (delimiter === '' || delimiter === '\n' || delimiter === '\\') return `sed ${command} has no delimiter`;
      position += 1;
      if (!delimited(delimiter) || !delimited(delimiter)) return `sed ${command} is not terminated`;
      if (command === 's') {
        const flagsStart = position;
        while (/[gpiImM0-9]/.test(at())) position += 1;
        const next = at();
        if (next === 'w' || next === 'W') return 'sed s///w writes a file';
        if (next === 'e') return 'sed s///e runs the pattern space as a command';
        if (next !== '' && !/[\s;}]/.test(next)) return `sed s flag ${JSON.stringify(script.slice(flagsStart, position + 1))} is not classified`;
      }
    } else if (command === 'w' || command === 'W') {
      return `sed ${command} writes a file`;
    } else if (command === 'r' || command === 'R') {
      return `sed ${command} reads a file into the output`;
    } else if (command === 'e') {
      return 'sed e runs a command';
    } else if (command === 'a' || command === 'i' || command === 'c') {
      // Text to add: data up to an unescaped line end (`a\` and a continued line included), never a file or a command.
      while (position < script.length && at() !== '\n') position += at() === '\\' ? 2 : 1;
    } else if (command === 'q' || command === 'Q' || command === 'l') {
      while (/[0-9]/.test(at())) position += 1;
    } else if (!PLAIN_COMMANDS.has(command)) {
      return `sed command ${JSON.stringify(command)} is not on the classifier's list`;
    }
    skipBlank();
  }
  return undefined;
}

/** sed that prints: no -i, no script file, and a script without w/r/e commands. */
export const sed: ProgramCheck = (program, args) => sedCheck(program, args, undefined);

/** `-i`, `-iSUFFIX`, `--in-place`, `--in-place=SUFFIX`: the backup suffix, empty for none; undefined for any other word. */
function inPlaceSuffix(word: string): string | undefined {
  const long = /^--in-place(?:=(.*))?$/s.exec(word);
  if (long !== null) return long[1] ?? '';
  const short = /^-i(.*)$/s.exec(word);
  return short === null ? undefined : (short[1] ?? '');
}

/** Is this a sed that edits in place (an `-i` option before any `--`)? */
export function editsInPlace(args: readonly Word[]): boolean {
  const end = args.findIndex((arg) => arg.value === '--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => inPlaceSuffix(arg.value) !== undefined);
}

/**
 * sed -i, on the acceptEdits gate: the same script checks as a printing sed,
 * and each file operand (and its backup, with a suffix) is a write the gate
 * checks. sed replaces each file by a new one, never writing through a symlink.
 */
export const sedInPlace: ProgramCheck = (program, args) => {
  const end = args.findIndex((arg) => arg.value === '--');
  const suffixes: string[] = [];
  const rest = args.filter((arg, index) => {
    const suffix = end !== -1 && index >= end ? undefined : inPlaceSuffix(arg.value);
    if (suffix !== undefined) suffixes.push(suffix);
    return suffix === undefined;
  });
  const [suffix, ...others] = suffixes;
  if (suffix === undefined) return refuse('sed without -i is not an in-place edit');
  if (others.some((other) => other !== suffix)) return refuse('sed -i given twice with different suffixes is not classified');
  if (/[*/]/.test(suffix)) return refuse('sed -i with a * or / in the backup suffix writes where the suffix says, which is not classified');
  return sedCheck(program, rest, suffix);
};

function sedCheck(program: string, args: readonly Word[], inPlace: string | undefined): ProgramVerdict {
  const scan = scanOptions(
    program,
    args.map((arg) => arg.value),
    SPEC,
  );
  if (!scan.ok) return refuse(scan.reason);
  const scriptOptions = scan.options.filter((option) => option.name === '-e' || option.name === '--expression');
  const scripts = scriptOptions.map((option) => ({ text: option.value ?? '', index: option.valueIndex }));
  let files = scan.operandIndexes;
  if (scripts.length === 0) {
    const first = scan.operandIndexes[0];
    if (first === undefined) return refuse('sed without a script is not classified');
    scripts.push({ text: args[first]?.value ?? '', index: first });
    files = scan.operandIndexes.slice(1);
  }
  for (const script of scripts) {
    // A glob where the script stands would make a file name the script: a file called `1w out` writes.
    const word = script.index === undefined ? undefined : args[script.index];
    if (word !== undefined && hasGlob(word)) return refuse('a glob where sed reads its script could make a file name the script');
    const problem = sedScriptProblem(script.text);
    if (problem !== undefined) return refuse(problem);
  }
  const reads: ReadOperand[] = [];
  for (const index of files) {
    const word = args[index];
    if (word === undefined) continue;
    const operand = readOperand(program, word);
    if (!operand.ok) return refuse(operand.reason);
    reads.push(...operand.paths);
  }
  if (inPlace === undefined) return { ok: true, rule: `read_only:${program}`, readPaths: reads };
  if (reads.length === 0) return refuse('sed -i without a file is not classified');
  if (reads.some((read) => read.glob === true)) return refuse('sed -i with a glob edits files only known when the shell runs');
  const writes = reads.map((read) => read.path);
  return { ok: true, rule: `filesystem_gate:${program} -i`, readPaths: reads, writePaths: inPlace === '' ? writes : [...writes, ...writes.map((path) => `${path}${inPlace}`)] };
}
