/** What the model last saw of one file. */
export interface SeenFile {
  readonly sha256: string;
  /** The text, when it was kept (the whole file was seen and it fit the ledger's budget). */
  readonly text?: string;
}

export interface ReadLedgerOptions {
  /** Characters of seen text kept across files, oldest dropped first; a file without its text falls back to the digest alone. Default 16 Mi. */
  readonly maxTextChars?: number;
}

/**
 * The SHA-256 of each file as the model last saw it through read, write or
 * edit (docs/design.md §9 edit: digests, never mtimes), keyed by the file's canonical
 * path so that two names of one file share their history, with the text
 * itself while it fits, so edit can tell a change elsewhere in the file from
 * one where it replaces (docs/decisions/0013).
 */
export class ReadLedger {
  readonly #seen = new Map<string, SeenFile>();
  readonly #maxTextChars: number;
  #textChars = 0;

  constructor(options: ReadLedgerOptions = {}) {
    this.#maxTextChars = options.maxTextChars ?? 16 * 1024 * 1024;
  }

  remember(key: string, sha256: string, text?: string): void {
    this.forget(key);
    const kept = text !== undefined && text.length <= this.#maxTextChars ? text : undefined;
    this.#seen.set(key, kept === undefined ? { sha256 } : { sha256, text: kept });
    if (kept === undefined) return;
    this.#textChars += kept.length;
    // Map order is insertion order: the first entries are the oldest.
    for (const [oldest, entry] of this.#seen) {
      if (this.#textChars <= this.#maxTextChars) break;
      if (entry.text === undefined || oldest === key) continue;
      this.#textChars -= entry.text.length;
      this.#seen.set(oldest, { sha256: entry.sha256 });
    }
  }

  lastSeen(key: string): string | undefined {
    return this.#seen.get(key)?.sha256;
  }

  seen(key: string): SeenFile | undefined {
    return this.#seen.get(key);
  }

  forget(key: string): void {
    const entry = this.#seen.get(key);
    if (entry?.text !== undefined) this.#textChars -= entry.text.length;
    this.#seen.delete(key);
  }
}
