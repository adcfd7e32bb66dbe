import { compareUtf8 } from './compare.ts';
import type { WalkLevel } from './directory-levels.ts';
import type { IgnoreLevel } from './ignore-rules.ts';
import type { SearchDirectory, SearchEntry } from './search-directory.ts';
import type { WireEntry, WireSplit } from './search-wire.ts';

export interface SortedEntry extends SearchEntry {
  /** The entry's name, and a `/` after a directory's: what its paths sort by (docs/contract.md §2). */
  readonly key: string;
}

/** One directory on a walker's stack: its sorted entries, the next one to visit, and where its part ends. */
export interface Frame {
  readonly directory: SearchDirectory;
  /** Relative to the task's directory ('' for the task's own). */
  readonly fromTask: string;
  readonly relative: string;
  readonly display: string;
  readonly entries: readonly SortedEntry[];
  index: number;
  end: number;
  readonly levels: readonly WalkLevel[];
  readonly compiledLevels: readonly IgnoreLevel[];
}

export function join(parent: string, name: string): string {
  if (parent === '' || parent === '.') return name;
  return parent === '/' ? `/${name}` : `${parent}/${name}`;
}

function keyed(entry: SearchEntry): SortedEntry {
  return { name: entry.name, kind: entry.kind, key: entry.kind === 'directory' ? `${entry.name}/` : entry.name };
}

/** A directory put on the stack, its entries in byte order of their paths (a part given away is in order already). */
export function newFrame(
  place: { directory: SearchDirectory; fromTask: string; relative: string; display: string; levels: readonly WalkLevel[] },
  entries: readonly SearchEntry[],
  options: { sorted: boolean },
): Frame {
  const keyedEntries = entries.map(keyed);
  if (!options.sorted) keyedEntries.sort((left, right) => compareUtf8(left.key, right.key));
  return { ...place, entries: keyedEntries, index: 0, end: keyedEntries.length, compiledLevels: place.levels.map((level) => level.compiled) };
}

/** Entries of the directory at `depth` on the stack, as a part for another walker: with the identities of every directory opened on the way to it. */
export function partOf(frames: readonly Frame[], depth: number, entries: readonly SortedEntry[]): WireSplit {
  const frame = frames[depth] as Frame;
  return {
    fromTask: frame.fromTask,
    identities: frames.slice(0, depth + 1).map((opened) => [opened.fromTask, opened.directory.dev, opened.directory.ino] as const),
    relative: frame.relative,
    display: frame.display,
    entries: entries.map((entry): WireEntry => [entry.name, entry.kind]),
    levels: frame.levels.map((level) => level.wire),
  };
}
