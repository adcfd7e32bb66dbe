import type { ReadFilesOptions } from '../file-system.ts';

/** The filter of a batch read, applied where the bytes are (shared by both file systems and the Node workers' logic). */
export function excludedBy(bytes: Uint8Array, options: ReadFilesOptions): 'binary' | 'absent' | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sniff = options.binarySniffBytes;
  if (sniff !== undefined && sniff > 0 && buffer.subarray(0, sniff).includes(0)) return 'binary';
  if (options.containing !== undefined && options.containing.length > 0 && buffer.indexOf(options.containing) === -1) return 'absent';
  const folded = options.containingIgnoringCase;
  if (folded !== undefined && folded !== '' && !containsFolded(buffer, foldedPattern(folded), folded.length)) return 'absent';
  return undefined;
}

/** A literal as a case-insensitive RegExp: escaped, so it cannot backtrack. Printable ASCII only. */
export function foldedPattern(text: string): RegExp {
  if (!/^[\x20-\x7e]+$/.test(text)) throw new RangeError('containingIgnoringCase takes printable ASCII only');
  return new RegExp(text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), 'i');
}

const WINDOW = 256 * 1024;

/** The folded test in windows that overlap by the literal's length: small strings, whatever the file's size. */
function containsFolded(buffer: Buffer, pattern: RegExp, length: number): boolean {
  for (let start = 0; start < buffer.length; start += WINDOW) {
    const end = Math.min(buffer.length, start + WINDOW + length - 1);
    if (pattern.test(buffer.toString('latin1', start, end))) return true;
    if (end === buffer.length) break;
  }
  return false;
}
