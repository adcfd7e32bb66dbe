import type { AsyncFileSystem } from '@openwork/fs-backend';
import type { PathGuard } from '@openwork/path-guard';
import type { ProcessBackend } from '@openwork/process-backend';
import type { FileChangeArtifact, ToolSessionContext } from '@openwork/tool-contract';
import type { BackgroundCommands } from './bash/background/background-commands.ts';
import type { ChangeQueue } from './common/change-queue.ts';
import type { ReadLedger } from './common/read-ledger.ts';

/** Limits a product may tune; every one is reported when hit. */
export interface ToolLimits {
  /** read/write/edit: most bytes of content handed over in one call (docs/contract.md §2: 1 MiB). */
  readonly maxContentBytes: number;
  /** read: files above this are refused with `too_large` before anything is decoded. */
  readonly maxReadFileBytes: number;
  /** read: characters kept of one line; the rest is cut and the output says so. */
  readonly maxLineChars: number;
  /**
   * read: most bytes of image data one read hands the model: an image file
   * above it is `too_large`, and a notebook's image outputs past it are left
   * out, each named in the output. Default 3.75 MiB, whose base64 form is
   * 5 MiB: the most Anthropic's API takes for one image (it refuses the whole
   * request over a larger one), and opencode's default cap.
   */
  readonly maxImageBytes?: number;
  /** grep: files above this are skipped, and counted in `skipped.tooLarge`. */
  readonly maxSearchFileBytes: number;
  /**
   * bash: processes (and threads) one command may have at once; a fork past
   * it fails. Enforced where the process backend runs commands in a cgroup
   * with the pids controller (the result's `containment` says); default 512.
   */
  readonly maxProcesses?: number;
  /**
   * bash: bytes of memory one command may use before the kernel ends it;
   * default the process backend's (a quarter of the memory all commands of
   * the session share, at most 4 GiB). Under a cgroup with the memory controller.
   */
  readonly maxMemoryBytes?: number;
}

export const DEFAULT_LIMITS: ToolLimits = Object.freeze({
  maxContentBytes: 1024 * 1024,
  maxReadFileBytes: 16 * 1024 * 1024,
  maxLineChars: 2000,
  maxImageBytes: (5 * 1024 * 1024 * 3) / 4,
  maxSearchFileBytes: 4 * 1024 * 1024,
  maxProcesses: 512,
});

/**
 * A write-ahead record of file changes (docs/decisions/0002-undo-promises.md):
 * write and edit hand it each change, with the original content, before the
 * file changes and again after, so no failure can leave a changed file
 * without its undo record.
 */
export interface ChangeJournal {
  /** Durably records a change about to be made; when it throws, the file is left as it was. */
  readonly begin: (change: FileChangeArtifact, options: { readonly signal: AbortSignal }) => Promise<void>;
  /** Records that the change was made. */
  readonly complete: (change: FileChangeArtifact) => Promise<void>;
  /** Records that the change was not made (its commit failed); best effort, undo also checks the file. */
  readonly abandon: (change: FileChangeArtifact) => Promise<void>;
}

/**
 * The session the built-in tools run in (docs/design.md §4): the path guard is the
 * only way to a CheckedPath, the backends the only way to the host.
 */
export interface BuiltinSession extends ToolSessionContext {
  readonly paths: PathGuard;
  readonly filesystem: AsyncFileSystem;
  readonly processes: ProcessBackend;
  readonly limits: ToolLimits;
  /** What the model last saw of each file, for edit's staleness check. */
  readonly readLedger: ReadLedger;
  /** The session's serial line for write, edit and undo (docs/design.md §10); absent, only per-path locks order them. */
  readonly changeQueue?: ChangeQueue;
  /** Where write and edit record each change before they make it; absent, they only return it as an artifact. */
  readonly changeJournal?: ChangeJournal;
  /**
   * bash: credential-like variables of `environment` (names holding KEY,
   * SECRET, TOKEN, PASSWORD, PASSWD or CREDENTIAL) that approved commands
   * get; every other one is removed, and a command that runs without
   * approval gets none (docs/security.md).
   */
  readonly passThroughEnvironment?: readonly string[];
  /**
   * bash `runInBackground`: the session's background commands. Absent (a
   * one-shot call), runInBackground is refused; whoever makes it disposes
   * it when the session ends, which ends every command it holds.
   */
  readonly background?: BackgroundCommands;
}
