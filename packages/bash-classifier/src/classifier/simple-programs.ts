import { scanOptions } from './options.ts';
import type { OptionScan, OptionSpec } from './options.ts';
import { readPaths } from './reads.ts';
import type { ReadSpec } from './reads.ts';
import { hasGlob } from './word.ts';
import { jq } from './jq.ts';
import { refuse } from './verdict.ts';
import type { ProgramCheck, ProgramVerdict } from './verdict.ts';
import type { Word } from './word.ts';

export interface CheckOptions {
  /** A further look at the scanned flags: a reason to ask, or undefined. */
  readonly extra?: (scan: Extract<OptionScan, { ok: true }>, program: string) => string | undefined;
  /** Which words are paths the program reads; without it, none. */
  readonly reads?: ReadSpec;
}

/** A check that accepts any flags the spec names, with an optional look at the result. */
export function withSpec(spec: OptionSpec, options: CheckOptions = {}): ProgramCheck {
  return (program, args) => {
    const scan = scanOptions(
      program,
      args.map((arg) => arg.value),
      spec,
    );
    if (!scan.ok) return refuse(scan.reason);
    const problem = options.extra?.(scan, program);
    if (problem !== undefined) return refuse(problem);
    if (options.reads === undefined) return { ok: true, rule: `read_only:${program}` };
    const reads = readPaths(program, args, scan, options.reads);
    return reads.ok ? { ok: true, rule: `read_only:${program}`, readPaths: reads.paths } : refuse(reads.reason);
  };
}

const FILES: ReadSpec = { operands: 'all' };
const FOLLOWS = 'follows symlinks while it walks, which can lead outside the roots';
const NAMES_FROM = 'reads the names of the files to read from a file, which the classifier cannot check against the roots';

const anyArguments: ProgramCheck = (program) => ({ ok: true, rule: `read_only:${program}` });

const noArguments: ProgramCheck = (program, args) =>
  args.length === 0 ? { ok: true, rule: `read_only:${program}` } : refuse(`${program} with arguments runs or changes something; only a bare ${program} is read-only`);

const printf: ProgramCheck = (program, args) =>
  args[0]?.value.startsWith('-v') === true ? refuse('printf -v assigns a shell variable') : { ok: true, rule: `read_only:${program}` };

/** A program whose second operand is an output file must not get one, nor a glob that could become one. */
function atMostOneOperand(scan: Extract<OptionScan, { ok: true }>, program: string): string | undefined {
  return scan.operands.length > 1 ? `${program} writes its second operand as an output file` : undefined;
}

function noGlobs(check: ProgramCheck): ProgramCheck {
  return (program, args) =>
    args.some(hasGlob) ? refuse(`${program} with a glob could receive an output file operand`) : check(program, args);
}

const grepSpec: OptionSpec = {
  short: 'EFGPiywxvczLlobqsnHhTZaIrRU',
  shortValue: 'efmABCdD',
  numeric: true,
  long: [
    'extended-regexp', 'fixed-strings', 'basic-regexp', 'perl-regexp', 'ignore-case', 'no-ignore-case', 'word-regexp',
    'line-regexp', 'null-data', 'no-messages', 'invert-match', 'version', 'help', 'byte-offset', 'line-number',
    'no-line-number', 'line-buffered', 'with-filename', 'no-filename', 'only-matching', 'quiet', 'silent', 'text',
    'recursive', 'dereference-recursive', 'files-without-match', 'files-with-matches', 'count', 'initial-tab', 'null',
  ],
  longValue: [
    'regexp', 'file', 'max-count', 'label', 'binary-files', 'directories', 'devices', 'include', 'exclude',
    'exclude-from', 'exclude-dir', 'before-context', 'after-context', 'context',
  ],
  longOptional: ['color', 'colour'],
};

/**
 * grep -R follows every symlink it meets while it walks: each path it reads
 * is marked for a walk, in which every symlink under it must lead inside the
 * roots (decideBashCommand checks that on the disk).
 */
function grepCheck(program: string, args: readonly Word[]): ProgramVerdict {
  const verdict = withSpec(grepSpec, { reads: grepReads })(program, args);
  if (!verdict.ok) return verdict;
  const scan = scanOptions(program, args.map((arg) => arg.value), grepSpec);
  if (!scan.ok || !scan.options.some((option) => option.name === '-R' || option.name === '--dereference-recursive')) return verdict;
  const reads = verdict.readPaths ?? [];
  const walked = (reads.length === 0 ? [{ path: '.' }] : reads).map((read) => ({ ...read, walk: true }));
  return { ...verdict, readPaths: walked };
}

const grepReads: ReadSpec = { operands: 'afterPattern', patternFlags: ['-e', '--regexp', '-f', '--file'], fileValues: ['-f', '--file', '--exclude-from'] };

const dateSpec: OptionSpec = {
  short: 'Ru',
  shortValue: 'dfr',
  shortOptional: 'I',
  long: ['rfc-email', 'utc', 'universal', 'debug', 'resolution', 'help', 'version'],
  longValue: ['date', 'file', 'reference', 'rfc-3339'],
  longOptional: ['iso-8601'],
  denied: { '-s': 'date -s sets the system clock', '--set': 'date --set sets the system clock' },
};

/** Programs that only read, each with its known-safe flags; git, find and sed have their own files. */
export const simplePrograms: Readonly<Record<string, ProgramCheck>> = {
  ls: withSpec({
    short: 'aAbBcCdfFghHiklmnNopqQrRsStuUvxXZ1',
    shortValue: 'ITw',
    long: [
      'all', 'almost-all', 'author', 'escape', 'ignore-backups', 'classify', 'file-type', 'full-time',
      'group-directories-first', 'no-group', 'human-readable', 'si', 'dereference-command-line',
      'dereference-command-line-symlink-to-dir', 'hyperlink', 'inode', 'kibibytes', 'literal', 'numeric-uid-gid',
      'hide-control-chars', 'show-control-chars', 'quote-name', 'reverse', 'recursive', 'size', 'context', 'zero',
      'help', 'version', 'directory',
    ],
    longValue: ['block-size', 'format', 'hide', 'indicator-style', 'ignore', 'quoting-style', 'sort', 'time', 'time-style', 'tabsize', 'width'],
    longOptional: ['color'],
    denied: { '-L': `ls -L ${FOLLOWS}`, '--dereference': `ls --dereference ${FOLLOWS}` },
  }, { reads: FILES }),
  cat: withSpec({
    short: 'AbeEnstTuv',
    long: ['show-all', 'number-nonblank', 'number', 'squeeze-blank', 'show-ends', 'show-tabs', 'show-nonprinting', 'help', 'version'],
  }, { reads: FILES }),
  head: withSpec({ short: 'qvz', shortValue: 'cn', numeric: true, long: ['quiet', 'silent', 'verbose', 'zero-terminated'], longValue: ['bytes', 'lines'] }, { reads: FILES }),
  tail: withSpec({
    short: 'fFqvz',
    shortValue: 'cns',
    numeric: true,
    long: ['retry', 'quiet', 'silent', 'verbose', 'zero-terminated'],
    longValue: ['bytes', 'lines', 'pid', 'sleep-interval', 'max-unchanged-stats'],
    longOptional: ['follow'],
  }, { reads: FILES }),
  wc: withSpec(
    { short: 'clmwL', long: ['bytes', 'chars', 'lines', 'words', 'max-line-length', 'help', 'version'], longValue: ['total'], denied: { '--files0-from': `wc --files0-from ${NAMES_FROM}` } },
    { reads: FILES },
  ),
  pwd: withSpec({ short: 'LP' }),
  echo: anyArguments,
  printf,
  true: anyArguments,
  false: anyArguments,
  date: withSpec(dateSpec, {
    extra: (scan) => (scan.operands.some((operand) => !operand.startsWith('+')) ? 'date with an operand other than +FORMAT sets the clock' : undefined),
    reads: { operands: 'none', fileValues: ['-f', '--file', '-r', '--reference'] },
  }),
  whoami: withSpec({ long: ['help', 'version'] }),
  id: withSpec({ short: 'agGnruzZ', long: ['group', 'groups', 'name', 'real', 'user', 'zero', 'context', 'help', 'version'] }),
  uname: withSpec({
    short: 'asnrvmpio',
    long: ['all', 'kernel-name', 'nodename', 'kernel-release', 'kernel-version', 'machine', 'processor', 'hardware-platform', 'operating-system', 'help', 'version'],
  }),
  basename: withSpec({ short: 'az', shortValue: 's', long: ['multiple', 'zero', 'help', 'version'], longValue: ['suffix'] }),
  dirname: withSpec({ short: 'z', long: ['zero', 'help', 'version'] }),
  realpath: withSpec({
    short: 'eEmLPqsz',
    long: ['canonicalize-existing', 'canonicalize-missing', 'logical', 'physical', 'quiet', 'strip', 'no-symlinks', 'zero', 'help', 'version'],
    longValue: ['relative-to', 'relative-base'],
  }),
  readlink: withSpec({
    short: 'efmnqsvz',
    long: ['canonicalize', 'canonicalize-existing', 'canonicalize-missing', 'no-newline', 'quiet', 'silent', 'verbose', 'zero', 'help', 'version'],
  }),
  stat: withSpec({ short: 'LfZt', shortValue: 'c', long: ['dereference', 'file-system', 'terse', 'help', 'version'], longValue: ['format', 'printf', 'cached'] }, { reads: FILES }),
  file: withSpec({
    short: 'bcEhiklLNprsSvz0',
    shortValue: 'eFmP',
    long: ['brief', 'mime', 'mime-type', 'mime-encoding', 'dereference', 'no-dereference', 'keep-going', 'list', 'no-pad', 'print0', 'preserve-date', 'raw', 'special-files', 'uncompress', 'uncompress-noreport', 'extension', 'apple', 'help', 'version'],
    longValue: ['exclude', 'exclude-quiet', 'separator', 'magic-file', 'parameter'],
    denied: {
      '-C': 'file -C writes a compiled magic file',
      '--compile': 'file --compile writes a compiled magic file',
      '-f': `file -f ${NAMES_FROM}`,
      '--files-from': `file --files-from ${NAMES_FROM}`,
    },
  }, { reads: { operands: 'all', fileValues: ['-m', '--magic-file'] } }),
  du: withSpec({
    short: '0abcDhHklmPsSx',
    shortValue: 'BdtX',
    long: ['all', 'apparent-size', 'bytes', 'total', 'dereference-args', 'human-readable', 'inodes', 'si', 'summarize', 'one-file-system', 'count-links', 'no-dereference', 'separate-dirs', 'null', 'help', 'version'],
    longValue: ['block-size', 'max-depth', 'threshold', 'time-style', 'exclude', 'exclude-from'],
    longOptional: ['time'],
    denied: { '-L': `du -L ${FOLLOWS}`, '--dereference': `du --dereference ${FOLLOWS}`, '--files0-from': `du --files0-from ${NAMES_FROM}` },
  }, { reads: { operands: 'all', fileValues: ['-X', '--exclude-from'] } }),
  df: withSpec({
    short: 'ahHiklPTv',
    shortValue: 'Btx',
    long: ['all', 'human-readable', 'si', 'inodes', 'local', 'no-sync', 'portability', 'print-type', 'sync', 'total', 'help', 'version'],
    longValue: ['block-size', 'type', 'exclude-type'],
    longOptional: ['output'],
  }),
  tree: withSpec({
    short: 'adfxACDFgiNpqQrstuvUSn',
    shortValue: 'LPIT',
    long: ['noreport', 'dirsfirst', 'prune', 'matchdirs', 'du', 'si', 'gitignore', 'ignore-case', 'inodes', 'device', 'help', 'version'],
    longValue: ['charset', 'filelimit', 'sort', 'timefmt'],
    denied: {
      '-o': 'tree -o writes its output to a file',
      '-R': 'tree -R writes an HTML file into every directory',
      '-H': 'tree -H writes HTML output meant for -R',
      '-l': `tree -l ${FOLLOWS}`,
    },
  }, { reads: FILES }),
  which: withSpec({ short: 'as' }),
  sort: withSpec({
    short: 'bdfgiMhnRrVcCmsuz',
    shortValue: 'ktST',
    long: ['ignore-leading-blanks', 'dictionary-order', 'ignore-case', 'general-numeric-sort', 'ignore-nonprinting', 'month-sort', 'human-numeric-sort', 'numeric-sort', 'random-sort', 'reverse', 'version-sort', 'merge', 'stable', 'unique', 'zero-terminated', 'debug', 'help', 'version'],
    longValue: ['sort', 'key', 'field-separator', 'buffer-size', 'temporary-directory', 'parallel', 'batch-size', 'random-source'],
    longOptional: ['check'],
    denied: {
      '-o': 'sort -o writes its output to a file',
      '--output': 'sort --output writes its output to a file',
      '--compress-program': 'sort --compress-program runs another program',
      '--files0-from': `sort --files0-from ${NAMES_FROM}`,
    },
  }, { reads: { operands: 'all', fileValues: ['-T', '--temporary-directory', '--random-source'] } }),
  uniq: noGlobs(
    withSpec(
      {
        short: 'cdDiuz',
        shortValue: 'fsw',
        long: ['count', 'repeated', 'ignore-case', 'unique', 'zero-terminated', 'help', 'version'],
        longValue: ['skip-fields', 'skip-chars', 'check-chars'],
        longOptional: ['all-repeated', 'group'],
      },
      { extra: atMostOneOperand, reads: FILES },
    ),
  ),
  cut: withSpec({
    short: 'nsz',
    shortValue: 'bcdf',
    long: ['complement', 'only-delimited', 'zero-terminated', 'help', 'version'],
    longValue: ['bytes', 'characters', 'delimiter', 'fields', 'output-delimiter'],
  }, { reads: FILES }),
  tr: withSpec({ short: 'cCdst', long: ['complement', 'delete', 'squeeze-repeats', 'truncate-set1', 'help', 'version'] }),
  nl: withSpec({
    short: 'p',
    shortValue: 'bdfhilnsvw',
    long: ['no-renumber', 'help', 'version'],
    longValue: ['body-numbering', 'section-delimiter', 'footer-numbering', 'header-numbering', 'line-increment', 'join-blank-lines', 'number-format', 'number-separator', 'starting-line-number', 'number-width'],
  }, { reads: FILES }),
  diff: withSpec({
    short: 'abBdeEfhHinNpPqrsStTuwyZ',
    shortValue: 'CDFIUWxX',
    long: ['brief', 'report-identical-files', 'recursive', 'new-file', 'unidirectional-new-file', 'ignore-case', 'ignore-all-space', 'ignore-space-change', 'ignore-blank-lines', 'ignore-tab-expansion', 'ignore-trailing-space', 'text', 'side-by-side', 'normal', 'strip-trailing-cr', 'no-dereference', 'minimal', 'speed-large-files', 'expand-tabs', 'initial-tab', 'suppress-common-lines', 'left-column', 'show-c-function', 'suppress-blank-empty', 'help', 'version'],
    longValue: ['exclude', 'exclude-from', 'label', 'ignore-matching-lines', 'show-function-line', 'width', 'starting-file', 'from-file', 'to-file', 'ifdef', 'tabsize'],
    longOptional: ['unified', 'context', 'color'],
  }, {
    extra: (scan) =>
      scan.options.some((option) => option.name === '-r' || option.name === '--recursive') && !scan.options.some((option) => option.name === '--no-dereference')
        ? `diff -r ${FOLLOWS}; add --no-dereference`
        : undefined,
    reads: { operands: 'all', fileValues: ['-X', '--exclude-from', '--from-file', '--to-file'] },
  }),
  cmp: withSpec({ short: 'bls', shortValue: 'in', long: ['print-bytes', 'verbose', 'quiet', 'silent', 'help', 'version'], longValue: ['ignore-initial', 'bytes'] }, { reads: FILES }),
  comm: withSpec({ short: '123z', long: ['check-order', 'nocheck-order', 'total', 'zero-terminated', 'help', 'version'], longValue: ['output-delimiter'] }, { reads: FILES }),
  grep: grepCheck,
  egrep: grepCheck,
  fgrep: grepCheck,
  jq,
  od: withSpec({
    short: 'bcdfilosxv',
    shortValue: 'AjNSt',
    shortOptional: 'w',
    long: ['output-duplicates', 'traditional', 'help', 'version'],
    longValue: ['address-radix', 'skip-bytes', 'read-bytes', 'format', 'endian'],
    longOptional: ['strings', 'width'],
  }, { reads: FILES }),
  hexdump: withSpec({ short: 'bcCdoxv', shortValue: 'efns' }, { reads: { operands: 'all', fileValues: ['-f'] } }),
  env: noArguments,
  printenv: withSpec({ short: '0', long: ['null', 'help', 'version'] }),
};
