/**
 * The pattern with each `[` that no `]` closes made literal (a backslash
 * before it), as ripgrep's glob matching reads it for `--files` (its
 * regression test r3127: the pattern `[abc` finds the file named `[abc`).
 * Every other character, classes that do close included, is left as it is.
 */
export function literalUnclosedClasses(pattern: string): string {
  let out = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] ?? '';
    if (char === '\\') {
      out += pattern.slice(index, index + 2);
      index += 1;
    } else if (char === '[') {
      const end = classEnd(pattern, index);
      if (end === -1) out += '\\[';
      else {
        out += pattern.slice(index, end);
        index = end - 1;
      }
    } else out += char;
  }
  return out;
}

/** The index just past the class that opens at `start`, or -1 when it is never closed (the glob syntax's own reading). */
function classEnd(text: string, start: number): number {
  let index = start + 1;
  if (text[index] === '!' || text[index] === '^') index += 1;
  if (text[index] === ']') index += 1;
  while (index < text.length && text[index] !== ']') index += text[index] === '\\' ? 2 : 1;
  return index < text.length ? index + 1 : -1;
}
