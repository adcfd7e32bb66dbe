/**
 * The SHA-256 of each file as the model last saw it through read, write or
 * edit, keyed by display path. Digests, never mtimes (seed §9 edit).
 */
export class ReadLedger {
  readonly #digests = new Map<string, string>();

  remember(path: string, sha256: string): void {
    this.#digests.set(path, sha256);
  }

  lastSeen(path: string): string | undefined {
    return this.#digests.get(path);
  }

  forget(path: string): void {
    this.#digests.delete(path);
  }
}
