import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { foldedLiteral, foldVariants } from '../src/case-fold.ts';
import { matchFile, type MatcherSpec } from '../src/file-matcher.ts';
import { compileSearchPattern } from '../src/search-pattern.ts';
import type { TreeSearchHit } from '../src/search-types.ts';

// A case-insensitive search keeps its byte prefilter for
// every literal, k and s (RE2 also folds them to the Kelvin sign and the
// long s) and non-ASCII letters included.

describe('the folded forms of a character', () => {
  it('are what RE2 matches: k with K and the Kelvin sign, s with S and the long s, é with É, ß with ẞ', () => {
    expect(foldVariants('k')).toEqual(['K', 'k', '\u212A'].sort());
    expect(foldVariants('\u212A')).toEqual(['K', 'k', '\u212A'].sort());
    expect(foldVariants('s')).toEqual(['S', 's', '\u017F'].sort());
    expect(foldVariants('é')).toEqual(['É', 'é'].sort());
    expect(foldVariants('ß')).toEqual(['ß', '\u1E9E'].sort());
    expect(foldVariants('1')).toEqual(['1']);
    for (const char of '-/\\^$.*+?()[]{}|#') expect(foldVariants(char)).toEqual([char]);
    // Dotless i is its own: i folds with I only.
    expect(foldVariants('i')).toEqual(['I', 'i']);
    expect(foldVariants('\u0131')).toEqual(['\u0131']);
  });

  it('cover every case-folding orbit of Unicode, as JavaScript\'s own iu matching sees them, and RE2 folds each the same', { timeout: 60_000 }, () => {
    // The smallest member of a code point's orbit: the least y such that [\0-y] matches it case-insensitively.
    const smallest = (code: number) => {
      const char = String.fromCodePoint(code);
      let low = 0;
      let high = code;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (new RegExp(`[\\u{0}-\\u{${middle.toString(16)}}]`, 'iu').test(char)) high = middle;
        else low = middle + 1;
      }
      return low;
    };
    const orbits = new Map<number, string[]>();
    for (let code = 0; code < 0x20000; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCodePoint(code);
      if (!/\p{Cased}|\p{Changes_When_Casefolded}|\p{Changes_When_Casemapped}/u.test(char)) continue;
      const key = smallest(code);
      orbits.set(key, [...(orbits.get(key) ?? []), char]);
    }
    const missing: string[] = [];
    const disagreeing: string[] = [];
    for (const orbit of orbits.values()) {
      // RE2 folds each orbit the same way: the search's prefilter and its engine agree.
      for (const char of orbit) {
        const engine = RE2JS.compile(RE2JS.quote(char), RE2JS.CASE_INSENSITIVE);
        const variants = foldVariants(char);
        if (!variants.every((variant) => engine.matches(variant))) disagreeing.push(char);
      }
      if (orbit.length < 2) continue;
      for (const char of orbit) {
        const variants = new Set(foldVariants(char));
        const absent = orbit.filter((member) => !variants.has(member));
        if (absent.length > 0) missing.push(`${char}: ${absent.join(' ')}`);
      }
    }
    expect(missing).toEqual([]);
    expect(disagreeing).toEqual([]);
  });
});

const naive = (text: string, source: string, caseInsensitive: boolean) => {
  const engine = RE2JS.compile(source, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
  const lines = (text.startsWith('\uFEFF') ? text.slice(1) : text).split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.flatMap((line, index) => (engine.test(line.endsWith('\r') ? line.slice(0, -1) : line) ? [index + 1] : []));
};

function run(bytes: Buffer, spec: MatcherSpec): TreeSearchHit[] {
  const hits: TreeSearchHit[] = [];
  matchFile(bytes, 'f', spec, (hit) => {
    hits.push(hit);
    return true;
  });
  return hits;
}

describe('the prefilter agrees with a plain decode and the engine on every line', () => {
  it('foldedLiteral finds a folded form in bytes and in a line, ASCII-only files tested by their ASCII spelling', () => {
    const kelvin = foldedLiteral('key');
    expect(kelvin.inBytes(Buffer.from('the \u212Aey'))).toBe(true);
    expect(kelvin.inBytes(Buffer.from('the KEY'))).toBe(true);
    expect(kelvin.inBytes(Buffer.from('the ke y'))).toBe(false);
    expect(foldedLiteral('class').inBytes(Buffer.from('CLA\u017FS'))).toBe(true);
    expect(foldedLiteral('é').inBytes(Buffer.from('plain ascii e'))).toBe(false);
    expect(foldedLiteral('é').inBytes(Buffer.from('CAFÉ'))).toBe(true);
    expect(kelvin.inLine('\u212AEY')).toBe(true);
    // A match across the 256 KiB windows the bytes are read in.
    const straddle = Buffer.concat([Buffer.alloc(256 * 1024 - 2, 0x78), Buffer.from('\u212Aey')]);
    expect(kelvin.inBytes(straddle)).toBe(true);
  });

  it('files, count and content modes, for -i literals with s, k and non-ASCII letters and regexes around them (property)', () => {
    const piece = fc.constantFrom('k', 'K', '\u212A', 's', 'S', '\u017F', 'é', 'É', 'ß', '\u1E9E', 'ey', 'EY', 'as', 'x', ' ', '\n', '\r\n', '\uFEFF', 'ı', 'I', 'i', 'ſs');
    const sources = ['key', 'kEy', 'class', 'ss', 'é', 'ß', 'as.*ey', 'k\\w', 'i', 'ſ', 'Ks', 'as-ey', 'k\\.s'];
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.constantFrom(...sources), fc.boolean(), (pieces, source, caseInsensitive) => {
        const text = pieces.join('');
        const bytes = Buffer.from(text, 'utf8');
        const pattern = compileSearchPattern(source, { caseInsensitive });
        const expected = naive(text, source, caseInsensitive);
        const base = { pattern, context: 0, maxLineChars: 2000 };
        expect(run(bytes, { ...base, mode: 'files' }).length, `files ${source}`).toBe(expected.length > 0 ? 1 : 0);
        expect(run(bytes, { ...base, mode: 'count' }).map((hit) => hit.count), `count ${source}`).toEqual(expected.length > 0 ? [expected.length] : []);
        expect(run(bytes, { ...base, mode: 'content' }).map((hit) => hit.match?.line), `content ${source}`).toEqual(expected);
      }),
      { numRuns: 1500 },
    );
  });

  it('content mode gives the same lines and context from the bytes as from the decoded text', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('ab', 'x', '\n', '\r\n', 'é', '\uFEFF', ' ab '), { maxLength: 30 }), fc.integer({ min: 0, max: 3 }), (pieces, context) => {
        const text = pieces.join('');
        const literal = compileSearchPattern('ab', { caseInsensitive: false });
        const regex = compileSearchPattern('a(b)', { caseInsensitive: false });
        const bytes = Buffer.from(text, 'utf8');
        // The regex has no byte literal, so it takes the decoded path: both paths must agree.
        const byBytes = run(bytes, { mode: 'content', pattern: literal, context, maxLineChars: 2000 });
        const byText = run(bytes, { mode: 'content', pattern: regex, context, maxLineChars: 2000 });
        expect(byBytes).toEqual(byText);
      }),
      { numRuns: 1000 },
    );
  });
});
