import { posix } from 'node:path';
import { abortKind, ToolError } from '@openwork/tool-contract';
import { components } from './lexical.ts';
import type { PathProbe, ProbeStat } from './probe.ts';

export interface Canonical {
  /** Canonical nearest existing directory (or the target itself when it exists). */
  readonly existing: string;
  /** lstat of the target when it exists. */
  readonly identity: ProbeStat | null;
  /** Components below `existing` that do not exist, target last. */
  readonly missing: readonly string[];
  /** Every canonical directory the walk lstat-ed, with its identity: what a backend's own walk must meet again. */
  readonly directories: ReadonlyMap<string, ProbeStat>;
}

function checkSignal(signal: AbortSignal | undefined): void {
  const kind = signal ? abortKind(signal) : undefined;
  if (kind) throw new ToolError(kind, kind === 'timed_out' ? 'the call reached its deadline while resolving a path' : 'the call was cancelled');
}

/**
 * docs/design.md §8 step 3–5: walks the path one component at a time with lstat and
 * readlink, splicing in every symlink's target, so the result is where the
 * file really is (or would be), whatever links lie on the way.
 */
export async function canonicalize(
  absolute: string,
  probe: PathProbe,
  options: {
    maxSymlinks: number;
    signal?: AbortSignal;
    trusted?: readonly string[];
    /**
     * Whether the walk may look at this location: a root, inside one, or on
     * the way to one. Elsewhere `outside` is thrown before any look at the disk,
     * so the answer never tells what exists outside the roots.
     */
    onTheWay?: (path: string) => boolean;
    outside?: () => ToolError;
  },
): Promise<Canonical> {
  const pending = components(absolute);
  let current = '/';
  const directories = new Map<string, ProbeStat>();
  // A canonical root made at session start is not walked again: the walk starts at the deepest one the path is in.
  const start = deepestTrusted(absolute, options.trusted ?? []);
  if (start !== undefined) {
    current = start;
    pending.splice(0, components(start).length);
  }
  let hops = 0;
  while (pending.length > 0) {
    checkSignal(options.signal);
    const part = pending.shift() ?? '';
    if (part === '.') continue;
    if (part === '..') {
      current = posix.dirname(current);
      continue;
    }
    const next = posix.join(current, part);
    if (options.onTheWay !== undefined && !options.onTheWay(next)) throw options.outside?.() ?? new ToolError('outside_root', `${absolute} is outside the allowed roots`);
    const stat = await probe.lstat(next);
    if (stat === null) {
      const missing = [part, ...pending].filter((name) => name !== '.');
      // `missing/..` cannot exist on a POSIX file system, so nothing could be created there either.
      if (missing.includes('..')) throw new ToolError('not_found', `${next} does not exist, so ${absolute} cannot be reached`);
      return { existing: current, identity: null, missing, directories };
    }
    if (stat.kind === 'symlink') {
      hops += 1;
      if (hops > options.maxSymlinks) throw new ToolError('symlink_loop', `too many symbolic links while resolving ${absolute} (a loop?); give the real path`);
      const target = await readlinkStill(probe, next, absolute);
      pending.unshift(...components(target));
      if (target.startsWith('/')) current = '/';
      continue;
    }
    if (pending.length > 0 && stat.kind !== 'directory') {
      throw new ToolError('not_a_directory', `${next} is not a directory, so ${absolute} cannot exist`);
    }
    if (stat.kind === 'directory') directories.set(next, stat);
    current = next;
    if (pending.length === 0) return { existing: current, identity: stat, missing: [], directories };
  }
  const root = await probe.lstat(current);
  return { existing: current, identity: root, missing: [], directories };
}

/**
 * The target of what lstat just called a symlink. When readlink fails because
 * the entry is no longer a symlink, something swapped it meanwhile: that is
 * `stale` (retry), not an I/O failure.
 */
async function readlinkStill(probe: PathProbe, path: string, absolute: string): Promise<string> {
  try {
    return await probe.readlink(path);
  } catch (error) {
    const now = await probe.lstat(path).catch(() => undefined);
    if (now !== undefined && now?.kind !== 'symlink') {
      throw new ToolError('stale', `${path} changed while ${absolute} was being resolved (it stopped being a symlink); retry`, { cause: error });
    }
    throw error;
  }
}

/** The deepest canonical root that holds `absolute`, where a resolution starts its walk. */
export function deepestTrusted(absolute: string, trusted: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const root of trusted) {
    if (root === '/' || !(absolute === root || absolute.startsWith(`${root}/`))) continue;
    if (best === undefined || root.length > best.length) best = root;
  }
  return best;
}
