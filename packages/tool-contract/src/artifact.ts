/** One hunk in jsdiff's structured form, three lines of context. */
export interface DiffHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly string[];
}

/** What write and edit leave behind when they change a text file (seed §10, CONTRACT.md §3). */
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
  readonly originalContent: string | null;
  readonly undone: boolean;
}

export type Artifact = FileChangeArtifact;
