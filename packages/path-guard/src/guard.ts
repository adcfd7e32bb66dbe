import { posix } from 'node:path';
import { ToolError } from '@openwork/tool-contract';
import type { PathAccess, PathIntent } from './access.ts';
import { canonicalize, deepestTrusted } from './canonicalize.ts';
import { issueCheckedPath, readCheckedPath, type CheckedPath, type CheckedPathInternals, type DirectoryIdentity, type RootKind } from './checked-path.ts';
import { isInside, lexicalAbsolute, onTheWay } from './lexical.ts';
import type { EntryKind, PathProbe, ProbeStat } from './probe.ts';

export interface PathGuardOptions {
  /** Absolute; always a writable root. */
  readonly workingDirectory: string;
  /** More writable roots (`--root`). */
  readonly writableRoots?: readonly string[];
  /** Readable, never writable (`--read-root`): a write there is `protected`. */
  readonly readOnlyRoots?: readonly string[];
  /** Readable by read/grep/glob/list, never writable (the skill root). */
  readonly protectedRoots?: readonly string[];
  readonly probe: PathProbe;
  /** Symlinks followed in one resolution before `symlink_loop`; default 40 as in Linux. */
  readonly maxSymlinks?: number;
}

export interface Root {
  readonly path: string;
  readonly kind: RootKind;
}

const PRIVATE = Symbol('PathGuard');

/**
 * The single entry through which every file tool gets a path (docs/design.md §8).
 * Created once per session: the roots are canonicalized then.
 */
export class PathGuard {
  readonly #workingDirectory: string;
  readonly #lexicalWorkingDirectory: string;
  readonly #roots: readonly Root[];
  /** The canonical roots, where a resolution starts its walk. */
  readonly #trusted: readonly string[];
  readonly #probe: PathProbe;
  readonly #maxSymlinks: number;
  /** Each canonical root's device and inode when the guard was created. */
  readonly #identities: ReadonlyMap<string, ProbeStat>;
  /** The directory chain handed to the entries of one listed directory, made once per directory (and root). */
  readonly #childChains = new WeakMap<CheckedPath, { readonly root: string; readonly chain: readonly DirectoryIdentity[] }>();

  private constructor(
    key: symbol,
    fields: { workingDirectory: string; lexical: string; roots: Root[]; identities: Map<string, ProbeStat>; probe: PathProbe; maxSymlinks: number },
  ) {
    if (key !== PRIVATE) throw new TypeError('use PathGuard.create');
    this.#workingDirectory = fields.workingDirectory;
    this.#lexicalWorkingDirectory = fields.lexical;
    this.#roots = Object.freeze(fields.roots);
    this.#trusted = Object.freeze(fields.roots.map((root) => root.path));
    this.#identities = fields.identities;
    this.#probe = fields.probe;
    this.#maxSymlinks = fields.maxSymlinks;
    Object.freeze(this);
  }

  /** Canonicalizes every root and records its identity; a root that does not exist or is not a directory is a configuration error. */
  static async create(options: PathGuardOptions): Promise<PathGuard> {
    const maxSymlinks = options.maxSymlinks ?? 40;
    const identities = new Map<string, ProbeStat>();
    const canonicalRoot = async (path: string): Promise<string> => {
      const absolute = posix.resolve(path);
      const found = await canonicalize(absolute, options.probe, { maxSymlinks });
      if (found.missing.length > 0) throw new Error(`root ${path} does not exist`);
      if (found.identity?.kind !== 'directory') throw new Error(`root ${path} is not a directory`);
      identities.set(found.existing, Object.freeze({ kind: 'directory', dev: found.identity.dev, ino: found.identity.ino }));
      return found.existing;
    };
    const roots: Root[] = [];
    const add = async (paths: readonly string[], kind: RootKind) => {
      for (const path of paths) {
        const canonical = await canonicalRoot(path);
        if (!roots.some((root) => root.path === canonical && root.kind === kind)) roots.push({ path: canonical, kind });
      }
    };
    const lexical = posix.resolve(options.workingDirectory);
    const workingDirectory = await canonicalRoot(lexical);
    await add([workingDirectory, ...(options.writableRoots ?? [])], 'writable');
    await add(options.readOnlyRoots ?? [], 'read_only');
    await add(options.protectedRoots ?? [], 'protected');
    return new PathGuard(PRIVATE, { workingDirectory, lexical, roots, identities, probe: options.probe, maxSymlinks });
  }

  /** The canonical working directory. */
  get workingDirectory(): string {
    return this.#workingDirectory;
  }

  get roots(): readonly Root[] {
    return this.#roots;
  }

  /** Resolves and checks (docs/design.md §8); throws ToolError with a contract kind. */
  /**
   * `followOutside`: walk places outside the roots too, for a caller that must
   * know where a path outside leads (is this PATH entry, through its symlinks,
   * inside a root?); never for an answer a model sees.
   */
  async resolvePath(input: string, access: PathAccess, intent: PathIntent, options: { signal?: AbortSignal; followOutside?: boolean } = {}): Promise<CheckedPath> {
    const lexical = lexicalAbsolute(input, this.#lexicalWorkingDirectory);
    // A long session: the walk below starts at this root by its name, so the name must still be the directory the session began with.
    const start = deepestTrusted(lexical, this.#trusted);
    if (start !== undefined) this.#requireSameRoot(start, await this.#probe.lstat(start));
    const found = await canonicalize(lexical, this.#probe, {
      maxSymlinks: this.#maxSymlinks,
      trusted: this.#trusted,
      ...(options.signal ? { signal: options.signal } : {}),
      // docs/contract.md §2.2: outside the roots the answer is outside_root, whatever is there.
      ...(options.followOutside === true ? {} : { onTheWay: (path: string) => onTheWay(path, this.#trusted, this.#lexicalWorkingDirectory), outside: () => this.#outside(input) }),
    });
    const realPath = found.missing.length === 0 ? found.existing : posix.join(found.existing, ...found.missing);
    const root = this.#containing(realPath, access, input);
    if (root.path !== start) this.#requireSameRoot(root.path, found.directories.get(root.path) ?? (await this.#probe.lstat(root.path)));
    if (found.missing.length > 0) {
      if (intent === 'must_exist') {
        throw new ToolError('not_found', `${input} does not exist; check the name with list or glob`);
      }
    }
    const display = this.#display(lexical, realPath);
    const existingParent = found.missing.length === 0 ? posix.dirname(realPath) : found.existing;
    return issueCheckedPath({
      displayPath: display,
      access,
      intent,
      internals: {
        realPath,
        identity: found.missing.length === 0 ? found.identity : null,
        existingParent,
        missing: found.missing,
        root: root.path,
        rootKind: root.kind,
        rootIdentity: this.#rootIdentity(root.path),
        directories: chainBelow(root.path, existingParent, found.directories),
      },
    });
  }

  /**
   * The CheckedPath of an entry listed inside an already checked directory,
   * without probing again; a symlink entry must go through resolvePath.
   */
  child(parent: CheckedPath, name: string, kind: EntryKind): CheckedPath {
    if (kind === 'symlink') throw new TypeError('a symlink entry must be resolved with resolvePath');
    if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0')) throw new TypeError(`not a single path component: ${JSON.stringify(name)}`);
    const outer = readCheckedPath(parent);
    const realPath = posix.join(outer.realPath, name);
    const root = this.#containing(realPath, parent.access, realPath);
    const display = parent.displayPath === '.' ? name : posix.isAbsolute(parent.displayPath) ? realPath : `${parent.displayPath}/${name}`;
    return issueCheckedPath({
      displayPath: display,
      access: parent.access,
      intent: 'must_exist',
      internals: {
        realPath,
        // dev/ino 0: unknown, so backends skip the identity comparison.
        identity: { kind, dev: 0, ino: 0 },
        existingParent: outer.realPath,
        missing: [],
        root: root.path,
        rootKind: root.kind,
        rootIdentity: this.#rootIdentity(root.path),
        directories: this.#childChain(parent, outer, root.path),
      },
    });
  }

  /** Is this path one of the roots, or a directory that holds one? (`rm -r` on it would remove a root.) */
  coversRoot(path: CheckedPath): boolean {
    const { realPath } = readCheckedPath(path);
    return this.#roots.some((root) => isInside(root.path, realPath));
  }

  /**
   * Does the real location of this path pass through a directory named
   * `name` (e.g. `.git`), wherever a symlink led it? The caller's policy
   * decides what that means; the guard only answers from the canonical path.
   */
  passesThrough(path: CheckedPath, name: string): boolean {
    const { realPath } = readCheckedPath(path);
    return realPath.split('/').slice(0, -1).includes(name) || posix.basename(realPath) === name;
  }

  /**
   * The canonical path of a checked path as a string, for keying records
   * (the read ledger): two names of one file give one key. Never a way to
   * open it; only the file system opens a CheckedPath.
   */
  canonicalKey(path: CheckedPath): string {
    return readCheckedPath(path).realPath;
  }

  /** The display form of a canonical absolute path (docs/contract.md §2). */
  displayPath(absolutePath: string): string {
    return this.#display(absolutePath, absolutePath);
  }

  #display(lexical: string, realPath: string): string {
    for (const base of [this.#lexicalWorkingDirectory, this.#workingDirectory]) {
      for (const candidate of [lexical, realPath]) {
        if (isInside(candidate, base)) return candidate === base ? '.' : posix.relative(base, candidate);
      }
    }
    return realPath;
  }

  /**
   * A root whose name now leads to another directory (moved away and replaced,
   * perhaps by a symlink) or to nothing is refused for the rest of the session:
   * following the name would read or write wherever it now points.
   */
  #requireSameRoot(root: string, now: ProbeStat | null): void {
    const recorded = this.#rootIdentity(root);
    if (now !== null && now.kind === 'directory' && now.dev === recorded.dev && now.ino === recorded.ino) return;
    const what = root === this.#workingDirectory ? 'the working directory' : 'the root';
    const how = now === null ? 'it no longer exists' : now.kind === 'symlink' ? 'it is a symlink now' : `it is another ${now.kind} now`;
    throw new ToolError(
      'stale',
      `${what} ${root} is not the directory this session started in (${how}: it was moved, removed or replaced); nothing in it can be reached until the session is started again in the right directory`,
    );
  }

  #rootIdentity(root: string): ProbeStat {
    const identity = this.#identities.get(root);
    if (identity === undefined) throw new TypeError(`${root} is not a root of this guard`);
    return identity;
  }

  /** The parent's chain (its root may be shallower than the child's) plus the parent itself, once per parent. */
  #childChain(parent: CheckedPath, outer: CheckedPathInternals, root: string): readonly DirectoryIdentity[] {
    const cached = this.#childChains.get(parent);
    if (cached?.root === root) return cached.chain;
    const known = new Map<string, ProbeStat>(outer.directories.map((directory) => [directory.path, { kind: 'directory', dev: directory.dev, ino: directory.ino }]));
    if (outer.identity !== null && outer.identity.ino !== 0) known.set(outer.realPath, outer.identity);
    const chain = chainBelow(root, outer.realPath, known);
    this.#childChains.set(parent, { root, chain });
    return chain;
  }

  #outside(input: string): ToolError {
    const list = this.#roots.filter((root) => root.kind === 'writable').map((root) => root.path).join(', ');
    return new ToolError('outside_root', `${input} is outside the allowed roots (${list}); use a path inside them`);
  }

  /** docs/design.md §8 step 6–7: inside which root, and may this access happen there. */
  #containing(realPath: string, access: PathAccess, input: string): Root {
    const holders = this.#roots.filter((root) => isInside(realPath, root.path)).sort((left, right) => right.path.length - left.path.length);
    const readable = holders[0];
    const list = this.#roots.filter((root) => root.kind === 'writable').map((root) => root.path).join(', ');
    if (!readable) throw this.#outside(input);
    if (access === 'read') return readable;
    const guarded = holders.find((root) => root.kind !== 'writable');
    if (guarded) {
      const what = guarded.kind === 'protected' ? 'a protected root' : 'a read-only root';
      throw new ToolError('protected', `${input} is in ${what} (${guarded.path}) and cannot be written; write inside ${list}`);
    }
    return readable;
  }
}

/** The directories strictly below `root`, down to and including `directory`, that have a known identity: a frozen chain. */
function chainBelow(root: string, directory: string, known: ReadonlyMap<string, ProbeStat>): readonly DirectoryIdentity[] {
  const chain: DirectoryIdentity[] = [];
  if (directory === root || !isInside(directory, root)) return Object.freeze(chain);
  let path = root === '/' ? '' : root;
  for (const name of directory.slice(path.length + 1).split('/')) {
    path = `${path}/${name}`;
    const identity = known.get(path);
    if (identity !== undefined) chain.push(Object.freeze({ path, dev: identity.dev, ino: identity.ino }));
  }
  return Object.freeze(chain);
}
