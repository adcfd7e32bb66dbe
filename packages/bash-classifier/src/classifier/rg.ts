import { withSpec } from './simple-programs.ts';

/** ripgrep's reading flags; the ones that run programs or decompress through them ask. */
export const rg = withSpec({
  short: 'abcFhHiIlnNopqsSuUvwxV0.',
  shortValue: 'ABCdEefgjmMrtT',
  numeric: false,
  long: [
    'binary', 'no-binary', 'byte-offset', 'case-sensitive', 'column', 'no-column', 'count', 'count-matches', 'crlf',
    'no-crlf', 'debug', 'trace', 'files', 'files-with-matches', 'files-without-match', 'fixed-strings',
    'no-fixed-strings', 'no-follow', 'glob-case-insensitive', 'heading', 'no-heading', 'hidden', 'no-hidden',
    'ignore-case', 'ignore-file-case-insensitive', 'invert-match', 'json', 'no-json', 'line-buffered', 'line-number',
    'no-line-number', 'line-regexp', 'max-columns-preview', 'multiline', 'no-multiline', 'multiline-dotall',
    'no-config', 'no-ignore', 'no-ignore-dot', 'no-ignore-exclude', 'no-ignore-files', 'no-ignore-global',
    'no-ignore-parent', 'no-ignore-vcs', 'no-messages', 'null', 'null-data', 'one-file-system', 'only-matching',
    'passthru', 'pcre2', 'no-pcre2', 'pretty', 'quiet', 'smart-case', 'sort-files', 'stats', 'no-stats', 'text',
    'no-text', 'trim', 'no-trim', 'type-list', 'unrestricted', 'vimgrep', 'with-filename', 'no-filename',
    'word-regexp', 'auto-hybrid-regex', 'no-unicode', 'include-zero', 'help', 'version',
  ],
  longValue: [
    'after-context', 'before-context', 'context', 'color', 'colors', 'context-separator', 'field-context-separator',
    'field-match-separator', 'dfa-size-limit', 'encoding', 'engine', 'file', 'glob', 'iglob', 'ignore-file',
    'max-columns', 'max-count', 'max-depth', 'max-filesize', 'path-separator', 'regexp', 'regex-size-limit',
    'replace', 'sort', 'sortr', 'threads', 'type', 'type-not', 'type-add', 'type-clear', 'hyperlink-format',
  ],
  denied: {
    '--pre': 'rg --pre runs a program on every file it searches',
    '--pre-glob': 'rg --pre-glob selects files for a --pre program',
    '-z': 'rg -z runs decompression programs on the files it searches',
    '--search-zip': 'rg --search-zip runs decompression programs on the files it searches',
    '--hostname-bin': 'rg --hostname-bin runs a program',
    '-L': 'rg -L follows symlinks while it walks, which can lead outside the roots',
    '--follow': 'rg --follow follows symlinks while it walks, which can lead outside the roots',
  },
}, {
  reads: {
    operands: 'afterPattern',
    patternFlags: ['-e', '--regexp', '-f', '--file'],
    pathsOnlyFlags: ['--files', '--type-list'],
    fileValues: ['-f', '--file', '--ignore-file'],
  },
});
