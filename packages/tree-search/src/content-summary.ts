/**
 * A file's content summary (docs/decisions/0036): the set of its byte
 * trigrams, ASCII letters folded to lower case, hashed into a bitset sized
 * to the number of trigrams it holds. A literal whose trigrams are not all
 * in the set is not in the file; one whose trigrams are may be, and the
 * file is read and searched as always. Codesearch and Zoekt index the same
 * way, per tree; here one bitset per file, built from bytes read anyway.
 */

const FOLD = new Uint8Array(256).map((_, byte) => (byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte));
/** The smallest summary: 2^9 bits, 64 bytes. */
const MIN_BITS = 1 << 9;
/** The scratch bitset is at most this large (512 KiB); a larger file shares its bits more. */
const MAX_BITS = 1 << 22;

let scratch = new Int32Array(MIN_BITS >>> 5);

/** A trigram's bit: the low bits of a mixed hash, so that a bitset folded to fewer bits keeps every trigram's bit. */
function mix(trigram: number): number {
  const mixed = Math.imul(trigram, 0x9e3779b1);
  return mixed ^ (mixed >>> 15);
}

function popcount(value: number): number {
  let bits = value - ((value >>> 1) & 0x55555555);
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  return Math.imul((bits + (bits >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** The summary of these bytes: at least two bits per trigram set, a power of two of them. */
export function summarize(bytes: Uint8Array): Int32Array {
  const length = bytes.length;
  let bits = MIN_BITS;
  while (bits < length * 4 && bits < MAX_BITS) bits *= 2;
  const words = bits >>> 5;
  if (scratch.length < words) scratch = new Int32Array(words);
  const table = scratch;
  const fold = FOLD;
  table.fill(0, 0, words);
  const mask = bits - 1;
  let trigram = ((fold[bytes[0] ?? 0] as number) << 8) | (fold[bytes[1] ?? 0] as number);
  for (let index = 2; index < length; index += 1) {
    trigram = ((trigram << 8) | (fold[bytes[index] as number] as number)) & 0xffffff;
    const mixed = Math.imul(trigram, 0x9e3779b1);
    const bit = (mixed ^ (mixed >>> 15)) & mask;
    table[bit >>> 5] = (table[bit >>> 5] as number) | (1 << bit);
  }
  let set = 0;
  for (let word = 0; word < words; word += 1) set += popcount(table[word] as number);
  let kept = MIN_BITS;
  while (kept < set * 2 && kept < bits) kept *= 2;
  const summary = new Int32Array(kept >>> 5);
  const keptMask = (kept >>> 5) - 1;
  for (let word = 0; word < words; word += 1) summary[word & keptMask] = (summary[word & keptMask] as number) | (table[word] as number);
  return summary;
}

/** The trigrams of some bytes, folded as the summaries are. */
export function trigramsOf(bytes: Uint8Array): number[] {
  const found = new Set<number>();
  for (let index = 2; index < bytes.length; index += 1) {
    found.add(((FOLD[bytes[index - 2] as number] as number) << 16) | ((FOLD[bytes[index - 1] as number] as number) << 8) | (FOLD[bytes[index] as number] as number));
  }
  return [...found];
}

/** Whether a file with this summary may hold every one of these trigrams. */
export function mayHold(summary: Int32Array, trigrams: readonly number[]): boolean {
  const mask = summary.length * 32 - 1;
  for (const trigram of trigrams) {
    const bit = mix(trigram) & mask;
    if (((summary[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return false;
  }
  return true;
}
