import { readOperand } from './reads.ts';
import { refuse } from './verdict.ts';
import type { ProgramCheck, ReadOperand } from './verdict.ts';

/** Tests and options that take no value. */
const NULLARY = new Set([
  '-print', '-print0', '-ls', '-prune', '-quit', '-true', '-false', '-empty', '-readable', '-writable', '-executable',
  '-nouser', '-nogroup', '-depth', '-xdev', '-mount', '-noleaf', '-daystart', '-not', '-a', '-o', '-and',
  '-or', '!', '(', ')', ',', '-help', '--help', '-version', '--version', '-ignore_readdir_race', '-noignore_readdir_race',
]);

/** Tests and options followed by one value. */
const UNARY = new Set([
  '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-regextype', '-lname',
  '-ilname', '-type', '-xtype', '-maxdepth', '-mindepth', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin',
  '-newer', '-anewer', '-cnewer', '-size', '-perm', '-user', '-group', '-uid', '-gid', '-links', '-inum', '-samefile',
  '-used', '-printf', '-fstype', '-context',
]);

const DENIED: Readonly<Record<string, string>> = {
  '-exec': 'find -exec runs a program on every match',
  '-execdir': 'find -execdir runs a program on every match',
  '-ok': 'find -ok runs a program on every match',
  '-okdir': 'find -okdir runs a program on every match',
  '-delete': 'find -delete removes every match',
  '-fprint': 'find -fprint writes a file',
  '-fprint0': 'find -fprint0 writes a file',
  '-fprintf': 'find -fprintf writes a file',
  '-fls': 'find -fls writes a file',
  '-follow': 'find -follow follows symlinks while it walks, which can lead outside the roots',
};

/** Tests whose value is a file find reads the times or identity of. */
const FILE_VALUES = new Set(['-newer', '-anewer', '-cnewer', '-samefile']);

/** find with a closed list of tests; actions that run, delete or write ask. */
export const find: ProgramCheck = (program, args) => {
  let index = 0;
  const reads: ReadOperand[] = [];
  // Leading -H -L -P options, then the starting points.
  while (index < args.length && /^-[HLP]$/.test(args[index]?.value ?? '')) {
    if (args[index]?.value === '-L') return refuse('find -L follows symlinks while it walks, which can lead outside the roots');
    index += 1;
  }
  const start = index;
  while (index < args.length) {
    const word = args[index];
    const arg = word?.value ?? '';
    if (word === undefined || arg.startsWith('-') || arg === '!' || arg === '(' || arg === ')' || arg === ',') break;
    const operand = readOperand(program, word);
    if (!operand.ok) return refuse(operand.reason);
    reads.push(...operand.paths);
    index += 1;
  }
  // Without a starting point find walks the directory it runs in.
  if (index === start) reads.push({ path: '.' });
  for (; index < args.length; index += 1) {
    const arg = args[index]?.value ?? '';
    const denied = DENIED[arg];
    if (denied !== undefined) return refuse(denied);
    if (NULLARY.has(arg)) continue;
    if (UNARY.has(arg)) {
      const value = args[index + 1];
      if (value === undefined) return refuse(`find ${arg} expects a value`);
      if (FILE_VALUES.has(arg)) {
        const operand = readOperand(program, value);
        if (!operand.ok) return refuse(operand.reason);
        reads.push(...operand.paths);
      }
      index += 1;
      continue;
    }
    return refuse(`find ${arg} is not a known-safe test or action`);
  }
  return { ok: true, rule: `read_only:${program}`, readPaths: reads };
};
