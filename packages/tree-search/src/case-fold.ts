import { isAscii } from 'node:buffer';

/**
 * Orbits of Unicode simple case folding that toLowerCase and toUpperCase do
 * not walk from every member: a member whose mapping is several characters
 * (ß → SS, ᾀ → ἈΙ), or that maps only one way (the Kelvin sign K → k, the
 * long s ſ → S). RE2 folds by these orbits, so `k` matches `K` and `s`
 * matches `ſ`. test/case-fold.test.ts checks the table against the whole
 * Unicode range as JavaScript's own `iu` folding sees it.
 */
const EXTRA_ORBITS: readonly string[] = [
  '\u004B\u006B\u212A',
  '\u0053\u0073\u017F',
  '\u00B5\u039C\u03BC',
  '\u00C5\u00E5\u212B',
  '\u00DF\u1E9E',
  '\u01C4\u01C5\u01C6',
  '\u01C7\u01C8\u01C9',
  '\u01CA\u01CB\u01CC',
  '\u01F1\u01F2\u01F3',
  '\u0345\u0399\u03B9\u1FBE',
  '\u0390\u1FD3',
  '\u0392\u03B2\u03D0',
  '\u0395\u03B5\u03F5',
  '\u0398\u03B8\u03D1\u03F4',
  '\u039A\u03BA\u03F0',
  '\u03A0\u03C0\u03D6',
  '\u03A1\u03C1\u03F1',
  '\u03A3\u03C2\u03C3',
  '\u03A6\u03C6\u03D5',
  '\u03A9\u03C9\u2126',
  '\u03B0\u1FE3',
  '\u0412\u0432\u1C80',
  '\u0414\u0434\u1C81',
  '\u041E\u043E\u1C82',
  '\u0421\u0441\u1C83',
  '\u0422\u0442\u1C84\u1C85',
  '\u042A\u044A\u1C86',
  '\u0462\u0463\u1C87',
  '\u1C88\uA64A\uA64B',
  '\u1E60\u1E61\u1E9B',
  '\u1FB3\u1FBC',
  '\u1FC3\u1FCC',
  '\u1FF3\u1FFC',
  '\uFB05\uFB06',
  // The Greek letters with ypogegrammeni and their prosgegrammeni capitals, 1F80–1FAF.
  ...Array.from({ length: 24 }, (_, index) => {
    const base = 0x1f80 + Math.floor(index / 8) * 16 + (index % 8);
    return String.fromCodePoint(base, base + 8);
  }),
];

const orbitOf = new Map<string, string>();
for (const orbit of EXTRA_ORBITS) for (const member of orbit) orbitOf.set(member, orbit);

/**
 * The characters RE2 takes for `char` in a case-insensitive search: its
 * simple case-folding orbit, itself included. Candidates come from the case
 * mappings and the table above, and the simple case folding decides which
 * of them fold together: exactly what RE2 will match.
 */
export function foldVariants(char: string): string[] {
  const candidates = new Set<string>([char]);
  const pending = [char];
  while (pending.length > 0) {
    const next = pending.pop() as string;
    const mapped = [next.toLowerCase(), next.toUpperCase(), ...(orbitOf.get(next) ?? '')];
    for (const candidate of mapped) {
      if ([...candidate].length !== 1 || candidates.has(candidate)) continue;
      candidates.add(candidate);
      pending.push(candidate);
    }
  }
  // JavaScript's `iu` matching folds by the same Unicode table as RE2 (test/case-fold.test.ts checks every cased
  // character against RE2 itself), and costs no engine start.
  const same = new RegExp(`^${char.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')}$`, 'iu');
  return [...candidates].filter((candidate) => same.test(candidate)).sort();
}

/** A literal that a case-insensitive search looks for in any of its folded forms. */
export interface FoldedLiteral {
  /** Whether some folded form of the literal is in these bytes (UTF-8): a file without one holds no match. */
  readonly inBytes: (bytes: Buffer) => boolean;
  /** The same question for one decoded line. */
  readonly inLine: (line: string) => boolean;
}

const WINDOW = 256 * 1024;

function byteEscape(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`).join('');
}

function unicodeEscape(char: string): string {
  return `\\u{${(char.codePointAt(0) ?? 0).toString(16)}}`;
}

/**
 * The byte prefilter of a case-insensitive search, for any
 * literal. Bytes are tested as latin1 text, each character of the literal
 * an alternation of the UTF-8 bytes of its folded forms: `k` is `[kK]` or
 * the three bytes of the Kelvin sign. A file that is all ASCII can hold only
 * the ASCII forms, so it gets the plain case-insensitive test of the
 * literal's ASCII spelling, or none at all when some character has no ASCII
 * form (`é`).
 */
export function foldedLiteral(literal: string): FoldedLiteral {
  const chars = [...literal];
  const variants = chars.map(foldVariants);
  const asciiOnly = variants.map((forms) => forms.find((form) => form.charCodeAt(0) < 0x80));
  const asciiSpelling = asciiOnly.every((form) => form !== undefined) ? asciiOnly.join('') : undefined;
  const asciiPattern = asciiSpelling === undefined ? undefined : new RegExp(byteEscape(asciiSpelling), 'i');
  const bytePattern = new RegExp(variants.map((forms) => `(?:${forms.map(byteEscape).join('|')})`).join(''));
  const linePattern = new RegExp(variants.map((forms) => `(?:${forms.map(unicodeEscape).join('|')})`).join(''), 'u');
  // Windows overlap by the longest form of the literal, less one byte: a match across two windows is whole in one.
  const overlap = variants.reduce((sum, forms) => sum + Math.max(...forms.map((form) => Buffer.byteLength(form))), 0) - 1;
  return {
    inBytes: (bytes) => {
      if (isAscii(bytes)) return asciiPattern !== undefined && inWindows(bytes, asciiPattern, overlap);
      return inWindows(bytes, bytePattern, overlap);
    },
    inLine: (line) => linePattern.test(line),
  };
}

/** The test in windows of latin1 text: small strings, whatever the file's size. */
function inWindows(bytes: Buffer, pattern: RegExp, overlap: number): boolean {
  for (let start = 0; start < bytes.length; start += WINDOW) {
    const end = Math.min(bytes.length, start + WINDOW + overlap);
    if (pattern.test(bytes.toString('latin1', start, end))) return true;
    if (end === bytes.length) break;
  }
  return false;
}
