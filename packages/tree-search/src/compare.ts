/**
 * Orders strings by their UTF-8 bytes (docs/contract.md §2) without encoding
 * them: UTF-16 code-unit order agrees except where a surrogate (half of a
 * code point above U+FFFF) meets U+E000–U+FFFF, which UTF-8 puts first.
 */
export function compareUtf8(left: string, right: string): number {
  if (left === right) return 0;
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) {
    const a = left.charCodeAt(index);
    const b = right.charCodeAt(index);
    if (a === b) continue;
    if (a >= 0xd800 && b >= 0xd800) return utf8Rank(a) - utf8Rank(b);
    return a - b;
  }
  return left.length - right.length;
}

/** Surrogates above U+E000–U+FFFF, each group in its own order. */
function utf8Rank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}
