import { scanOptions } from './options.ts';
import { readOperand } from './reads.ts';
import { refuse } from './verdict.ts';
import { hasGlob } from './word.ts';
import type { ProgramCheck, ReadOperand } from './verdict.ts';

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
export const sed: ProgramCheck = (program, args) => {
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
  return { ok: true, rule: `read_only:${program}`, readPaths: reads };
};
