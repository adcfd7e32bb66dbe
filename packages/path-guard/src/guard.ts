import { posix } from 'node:path';
import { ToolError } from '@openwork/tool-contract';
import type { PathAccess, PathIntent } from './access.ts';
import { canonicalize } from './canonicalize.ts';
import { issueCheckedPath, readCheckedPath, type CheckedPath, type RootKind } from './checked-path.ts';
import { isInside, lexicalAbsolute } from './lexical.ts';
import type { EntryKind, PathProbe } from './probe.ts';

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
 * The single entry through which every file tool gets a path (seed §8).
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

  private constructor(key: symbol, fields: { workingDirectory: string; lexical: string; roots: Root[]; probe: PathProbe; maxSymlinks: number }) {
    if (key !== PRIVATE) throw new TypeError('use PathGuard.create');
    this.#workingDirectory = fields.workingDirectory;
    this.#lexicalWorkingDirectory = fields.lexical;
    this.#roots = Object.freeze(fields.roots);
    this.#trusted = Object.freeze(fields.roots.map((root) => root.path));
    this.#probe = fields.probe;
    this.#maxSymlinks = fields.maxSymlinks;
    Object.freeze(this);
  }

  /** Canonicalizes every root; a root that does not exist or is not a directory is a configuration error. */
  static async create(options: PathGuardOptions): Promise<PathGuard> {
    const maxSymlinks = options.maxSymlinks ?? 40;
    const canonicalRoot = async (path: string): Promise<string> => {
      const absolute = posix.resolve(path);
      const found = await canonicalize(absolute, options.probe, { maxSymlinks });
      if (found.missing.length > 0) throw new Error(`root ${path} does not exist`);
      if (found.identity?.kind !== 'directory') throw new Error(`root ${path} is not a directory`);
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
    return new PathGuard(PRIVATE, { workingDirectory, lexical, roots, probe: options.probe, maxSymlinks });
  }

  /** The canonical working directory. */
  get workingDirectory(): string {
    return this.#workingDirectory;
  }

  get roots(): readonly Root[] {
    return this.#roots;
  }

  /** Resolves and checks (seed §8); throws ToolError with a contract kind. */
  async resolvePath(input: string, access: PathAccess, intent: PathIntent, options: { signal?: AbortSignal } = {}): Promise<CheckedPath> {
    const lexical = lexicalAbsolute(input, this.#lexicalWorkingDirectory);
    const found = await canonicalize(lexical, this.#probe, {
      maxSymlinks: this.#maxSymlinks,
      trusted: this.#trusted,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const realPath = found.missing.length === 0 ? found.existing : posix.join(found.existing, ...found.missing);
    const root = this.#containing(realPath, access, input);
    if (found.missing.length > 0) {
      if (intent === 'must_exist') {
        throw new ToolError('not_found', `${input} does not exist; check the name with list or glob`);
      }
    }
    const display = this.#display(lexical, realPath);
    return issueCheckedPath({
      displayPath: display,
      access,
      intent,
      internals: { realPath, identity: found.missing.length === 0 ? found.identity : null, existingParent: found.missing.length === 0 ? posix.dirname(realPath) : found.existing, missing: found.missing, root: root.path, rootKind: root.kind },
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
      // dev/ino 0: unknown, so backends skip the identity comparison.
      internals: { realPath, identity: { kind, dev: 0, ino: 0 }, existingParent: outer.realPath, missing: [], root: root.path, rootKind: root.kind },
    });
  }

  /** Is this path one of the roots, or a directory that holds one? (`rm -r` on it would remove a root.) */
  coversRoot(path: CheckedPath): boolean {
    const { realPath } = readCheckedPath(path);
    return this.#roots.some((root) => isInside(root.path, realPath));
  }

  /** The display form of a canonical absolute path (CONTRACT.md §2). */
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

  /** seed §8 step 6–7: inside which root, and may this access happen there. */
  #containing(realPath: string, access: PathAccess, input: string): Root {
    const holders = this.#roots.filter((root) => isInside(realPath, root.path)).sort((left, right) => right.path.length - left.path.length);
    const readable = holders[0];
    const list = this.#roots.filter((root) => root.kind === 'writable').map((root) => root.path).join(', ');
    if (!readable) throw new ToolError('outside_root', `${input} is outside the allowed roots (${list}); use a path inside them`);
    if (access === 'read') return readable;
    const guarded = holders.find((root) => root.kind !== 'writable');
    if (guarded) {
      const what = guarded.kind === 'protected' ? 'a protected root' : 'a read-only root';
      throw new ToolError('protected', `${input} is in ${what} (${guarded.path}) and cannot be written; write inside ${list}`);
    }
    return readable;
  }
}
