import { hasGlob } from './word.ts';
import { refuse } from './verdict.ts';
import type { ProgramCheck } from './verdict.ts';

const FLAGS = new Set(['-a', '-autoskip', '-b', '-bits', '-C', '-capitalize', '-E', '-EBCDIC', '-e', '-i', '-include', '-p', '-ps', '-postscript', '-plain', '-r', '-revert', '-u', '-d', '-h', '-help', '-v', '-version']);
const VALUE_FLAGS = new Set(['-c', '-cols', '-g', '-groupsize', '-l', '-len', '-n', '-name', '-o', '-s', '-seek', '-R']);

/** xxd reads its own single-dash long flags; its second operand is an output file, so only one is allowed. */
export const xxd: ProgramCheck = (program, args) => {
  if (args.some(hasGlob)) return refuse('xxd with a glob could receive an output file operand');
  const operands: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]?.value ?? '';
    if (arg === '-' || !arg.startsWith('-')) operands.push(arg);
    else if (FLAGS.has(arg)) continue;
    else if (VALUE_FLAGS.has(arg)) {
      if (args[index + 1] === undefined) return refuse(`xxd ${arg} expects a value`);
      index += 1;
    } else if (!/^-[cglos][+-]?(0x)?[0-9a-fA-F]+$/.test(arg)) return refuse(`xxd ${arg} is not a known-safe flag`);
  }
  if (operands.length > 1) return refuse('xxd writes its second operand as an output file');
  const input = operands[0];
  return { ok: true, rule: `read_only:${program}`, readPaths: input === undefined || input === '-' ? [] : [{ path: input }] };
};
