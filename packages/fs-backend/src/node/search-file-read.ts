import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { HEAD_BYTES, type FileRead, type HeadDecision } from '@openwork/tree-search/worker';

const FILE_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
/** The first read buffer; it grows to the largest file read, at most the search's file limit plus one byte. */
const FIRST_BUFFER_BYTES = 1024 * 1024;

export function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/**
 * One buffer per walker, reused for every file: only what a file yields
 * (paths, cut lines) outlives its read, so a search of a large tree
 * allocates almost nothing per file.
 */
export class ReadBuffer {
  #buffer = Buffer.allocUnsafe(FIRST_BUFFER_BYTES);
  /** Whether a whole read reports the identity of what it read: only for a walker that keeps summaries (docs/decisions/0036). */
  readonly identities: boolean;

  constructor(options: { identities: boolean }) {
    this.identities = options.identities;
  }

  /** Reads the open file: at most maxBytes, tooLarge past it, even when it grows while being read. */
  read(fd: number, size: number, maxBytes: number, decide?: HeadDecision): FileRead {
    if (size > maxBytes) return { ok: false, reason: 'tooLarge' };
    const limit = maxBytes + 1;
    if (this.#buffer.length < Math.min(size + 1, limit)) this.#buffer = Buffer.allocUnsafe(Math.min(limit, Math.max(size + 1, this.#buffer.length * 2)));
    let length = 0;
    if (decide !== undefined && size > HEAD_BYTES) {
      length = readSync(fd, this.#buffer, 0, HEAD_BYTES, 0);
      const head = this.#buffer.subarray(0, length);
      if (length === HEAD_BYTES && decide(head)) return { ok: true, bytes: head, settled: true };
    }
    for (;;) {
      if (length === this.#buffer.length) {
        if (length >= limit) break;
        const grown = Buffer.allocUnsafe(Math.min(limit, length * 2));
        this.#buffer.copy(grown, 0, 0, length);
        this.#buffer = grown;
      }
      // Ask for one byte more than fstat said: a short read is the end of the file, without a second call.
      const wanted = Math.min(this.#buffer.length - length, Math.max(size + 1 - length, 64 * 1024));
      const count = readSync(fd, this.#buffer, length, wanted, length);
      length += count;
      if (count < wanted) break;
    }
    if (length > maxBytes) return { ok: false, reason: 'tooLarge' };
    return { ok: true, bytes: this.#buffer.subarray(0, length) };
  }
}

/**
 * Reads the regular file at `path`, opened without following a symlink or
 * blocking. `check` (the path fallback's directory check) runs before the
 * open and again once the file is read, so a swap around the open is caught
 * unless it was undone in between.
 */
export function readAt(path: string, buffer: ReadBuffer, options: { maxBytes: number; decide: HeadDecision | undefined; check?: () => void }): FileRead {
  let fd: number;
  try {
    options.check?.();
    fd = openSync(path, FILE_FLAGS);
  } catch (error) {
    return { ok: false, reason: codeOf(error) === 'ENOENT' ? 'gone' : 'unreadable' };
  }
  try {
    const stat = fstatSync(fd);
    // The listing said a regular file; fstat of what was opened confirms it, so a FIFO or device swapped in is never read.
    if (!stat.isFile()) return { ok: false, reason: 'unreadable' };
    const read = buffer.read(fd, stat.size, options.maxBytes, options.decide);
    options.check?.();
    // What was read, for a walker that keeps its summary: the identity of the open file, not of whatever the name leads to now.
    // The Stats object is a FileIdentity already (dev, ino, size, mtimeMs, ctimeMs): nothing more is made per file.
    return buffer.identities && read.ok && read.settled !== true ? { ok: true, bytes: read.bytes, identity: stat } : read;
  } catch {
    return { ok: false, reason: 'unreadable' };
  } finally {
    closeSync(fd);
  }
}
