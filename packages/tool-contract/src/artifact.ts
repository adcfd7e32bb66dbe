/** One hunk in jsdiff's structured form, three lines of context. */
export interface DiffHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly string[];
}

/** How a text file's bytes encode its text; UTF-16 files are recognized by their byte-order mark, which they keep. */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** What write and edit leave behind when they change a text file (docs/design.md §10, docs/contract.md §3). */
export interface FileChangeArtifact {
  readonly kind: 'file_change';
  readonly changeId: string;
  readonly path: string;
  readonly absolutePath: string;
  readonly change: 'create' | 'modify';
  readonly added: number;
  readonly removed: number;
  readonly hunks: readonly DiffHunk[];
  readonly beforeSha256: string | null;
  readonly afterSha256: string;
  /** The text before the change; a byte-order mark the file had is its first character (U+FEFF). */
  readonly originalContent: string | null;
  readonly undone: boolean;
  /**
   * How `originalContent` was encoded on disk, so undo writes back the exact
   * bytes; absent means UTF-8 (every artifact made before this field existed).
   */
  readonly encoding?: TextEncoding;
}

export type Artifact = FileChangeArtifact;
