import type { CheckedPath, EntryKind, PathProbe } from '@openwork/path-guard';

/**
 * What reading a search's ignore rules and git configuration needs of a
 * file system: small files read whole, directories listed by name, and the
 * probe a path guard resolves through. Every AsyncFileSystem is one.
 */
export interface SearchConfigFiles extends PathProbe {
  readFile(path: CheckedPath, options: { readonly maxBytes: number; readonly signal?: AbortSignal }): Promise<Uint8Array>;
  readDirectory(
    path: CheckedPath,
    options: { readonly signal?: AbortSignal; readonly sizes?: boolean },
  ): Promise<ReadonlyArray<{ readonly name: string; readonly kind: EntryKind }>>;
}
