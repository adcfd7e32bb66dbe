import type { PathAccess, PathIntent } from './access.ts';
import type { EntryKind, ProbeStat } from './probe.ts';

/** Which kind of root holds a checked path. */
export type RootKind = 'writable' | 'read_only' | 'protected';

/** A directory the guard saw on the way to a target, and its identity then. */
export interface DirectoryIdentity {
  /** Canonical absolute path. */
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
}

/** What only a file system backend may read from a CheckedPath. */
export interface CheckedPathInternals {
  /** Canonical absolute location: the target itself, or its canonical nearest existing parent plus the missing components. */
  readonly realPath: string;
  /** lstat identity of the real target when it was checked; null when it did not exist. */
  readonly identity: ProbeStat | null;
  /** Canonical nearest existing directory at or above the target. */
  readonly existingParent: string;
  /** Components below existingParent that do not exist yet, target last (empty when it exists). */
  readonly missing: readonly string[];
  /** The canonical root that contains realPath, and its kind. */
  readonly root: string;
  readonly rootKind: RootKind;
  /**
   * The root's identity recorded when the guard was created: a backend that
   * opens the root and finds another directory (the root was moved, or
   * replaced by a symlink) must refuse, not follow.
   */
  readonly rootIdentity: ProbeStat;
  /**
   * Directories strictly below the root, down to existingParent, that the
   * guard saw, with their identities (docs/decisions/0009): a backend that
   * walks down from the root meets each again and refuses one that changed.
   * One it did not see (reached through `..` from a deeper root) is absent.
   */
  readonly directories: readonly DirectoryIdentity[];
}

const internals = new WeakMap<CheckedPath, CheckedPathInternals>();
const issuing = Symbol('issuing a CheckedPath');

/**
 * A path the guard has resolved and found inside the session's roots for one
 * access (docs/design.md §8). Its real location is private: tools can show it and hand
 * it back to a backend, never turn it into a string to open themselves.
 */
export class CheckedPath {
  /** The path for results: relative to the working directory with `/`, or absolute outside it. */
  readonly displayPath: string;
  readonly access: PathAccess;
  readonly intent: PathIntent;
  /** The kind found when checked; null when the target did not exist. */
  readonly kind: EntryKind | null;

  /** @internal Only path-guard issues CheckedPaths; the key is not exported. */
  constructor(
    key: symbol,
    fields: { displayPath: string; access: PathAccess; intent: PathIntent; internals: CheckedPathInternals },
  ) {
    if (key !== issuing) throw new TypeError('a CheckedPath is issued by PathGuard.resolvePath only');
    this.displayPath = fields.displayPath;
    this.access = fields.access;
    this.intent = fields.intent;
    this.kind = fields.internals.identity?.kind ?? null;
    const { missing, directories } = fields.internals;
    // Entries of one listed directory share the same (already frozen) chain: no copy per entry.
    const chain = Object.isFrozen(directories) ? directories : Object.freeze(directories.map((directory) => Object.freeze({ ...directory })));
    internals.set(this, Object.freeze({ ...fields.internals, missing: Object.freeze([...missing]), directories: chain }));
    Object.freeze(this);
  }

  get exists(): boolean {
    return this.kind !== null;
  }

  toString(): string {
    return this.displayPath;
  }

  toJSON(): string {
    return this.displayPath;
  }
}

/** Issues a CheckedPath; used by the guard, not exported from the package. */
export function issueCheckedPath(fields: {
  displayPath: string;
  access: PathAccess;
  intent: PathIntent;
  internals: CheckedPathInternals;
}): CheckedPath {
  return new CheckedPath(issuing, fields);
}

/** The backend's view of a CheckedPath; throws for anything the guard did not issue. */
export function readCheckedPath(path: CheckedPath): CheckedPathInternals {
  const found = internals.get(path);
  if (!found) throw new TypeError('not a CheckedPath issued by PathGuard');
  return found;
}
