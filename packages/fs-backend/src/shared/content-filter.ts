import type { ReadFilesOptions } from '../file-system.ts';

/** The filter of a batch read, applied where the bytes are (shared by both file systems and the Node workers' logic). */
export function excludedBy(bytes: Uint8Array, options: ReadFilesOptions): 'binary' | 'absent' | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sniff = options.binarySniffBytes;
  if (sniff !== undefined && sniff > 0 && buffer.subarray(0, sniff).includes(0)) return 'binary';
  if (options.containing !== undefined && options.containing.length > 0 && buffer.indexOf(options.containing) === -1) return 'absent';
  const folded = options.containingIgnoringCase;
  if (folded !== undefined && folded !== '' && !foldedPattern(folded).test(buffer.toString('latin1'))) return 'absent';
  return undefined;
}

/** A literal as a case-insensitive RegExp: escaped, so it cannot backtrack. Printable ASCII only. */
export function foldedPattern(text: string): RegExp {
  if (!/^[\x20-\x7e]+$/.test(text)) throw new RangeError('containingIgnoringCase takes printable ASCII only');
  return new RegExp(text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), 'i');
}
