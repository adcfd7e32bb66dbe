import { describe, expect, it } from 'vitest';
import { parseExcludesFile, parseIgnoreCase } from '@openwork/tree-search';
import { escapeName } from '../src/common/escape-name.ts';
import { formatBytes } from '../src/common/text.ts';

// The glob syntax and ripgrep's -g moved with the search into fs-backend (test/glob-syntax.test.ts there).

describe('core.ignorecase from a git config file', () => {
  it('reads the core section, case-insensitive names, git booleans, last one wins', () => {
    expect(parseIgnoreCase('[core]\n\tignorecase = true\n')).toBe(true);
    expect(parseIgnoreCase('[Core]\n\tIgnoreCase=false\n')).toBe(false);
    expect(parseIgnoreCase('[core]\n\tignorecase\n')).toBe(true);
    expect(parseIgnoreCase('[core]\nignorecase = yes ; a comment\n')).toBe(true);
    expect(parseIgnoreCase('[core]\nignorecase = "off"\n')).toBe(false);
    expect(parseIgnoreCase('[core]\nignorecase = 1\n[core]\nignorecase = 0\n')).toBe(false);
    expect(parseIgnoreCase('[core] ignorecase = true')).toBe(true);
    expect(parseIgnoreCase('[user]\n\tignorecase = true\n')).toBeUndefined();
    expect(parseIgnoreCase('[core "sub"]\n\tignorecase = true\n')).toBeUndefined();
    expect(parseIgnoreCase('[core]\n\t# ignorecase = true\n\tbare = false\n')).toBeUndefined();
    expect(parseIgnoreCase('')).toBeUndefined();
  });

  it('core.excludesFile: the last setting, its quotes, comment and escapes undone', () => {
    expect(parseExcludesFile('[core]\n\texcludesFile = ~/.gitignore_global\n')).toBe('~/.gitignore_global');
    expect(parseExcludesFile('[Core]\n\texcludesfile = "/a b/ignore" # a comment\n[core]\n\tbare = false\n')).toBe('/a b/ignore');
    expect(parseExcludesFile('[core]\nexcludesFile = /one\n[core]\nexcludesFile = /two\n')).toBe('/two');
    expect(parseExcludesFile('[user]\n\texcludesFile = x\n')).toBeUndefined();
    expect(parseExcludesFile('[core]\n\texcludesFile\n')).toBeUndefined();
  });
});

describe('names in the model text', () => {
  it('a name with a control character is a JSON string; others are as they are', () => {
    expect(escapeName('plain name.txt')).toBe('plain name.txt');
    expect(escapeName('back\\slash')).toBe('back\\slash');
    expect(escapeName('two\nlines')).toBe('"two\\nlines"');
    expect(escapeName('tab\there')).toBe('"tab\\there"');
    expect(escapeName('esc\u001b[31m')).toBe('"esc\\u001b[31m"');
    expect(escapeName('del\u007f c1\u0085 ls\u2028')).toBe('"del\\u007f c1\\u0085 ls\\u2028"');
    expect(escapeName('"quoted"')).toBe('"\\"quoted\\""');
    expect(JSON.parse(escapeName('a\nb\u2029"')) as string).toBe('a\nb\u2029"');
  });
});

describe('sizes in messages', () => {
  it('are exact: whole units when they are, else the byte count', () => {
    expect(formatBytes(1024 * 1024)).toBe('1 MiB');
    expect(formatBytes(1024 * 1024 + 2)).toBe('1048578 bytes');
    expect(formatBytes(4 * 1024 * 1024)).toBe('4 MiB');
    expect(formatBytes(1024)).toBe('1 KiB');
    expect(formatBytes(1536)).toBe('1536 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(0)).toBe('0 bytes');
  });
});
