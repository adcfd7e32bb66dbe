import type { CheckedPath } from '@openwork/path-guard';
import { readCheckedPath } from '@openwork/path-guard/backend';
import type { ToolError } from '@openwork/tool-contract';
import type { SearchTargets, WireFailure, WireTarget } from '@openwork/tree-search';
import { directoryChanged } from './read-directory.ts';
import { guardChain, rootChanged } from './directory-walk.ts';
import { toolErrorFromErrno } from './errno.ts';

/** Where a CheckedPath leads, as a walker needs it (docs/decisions/0009). */
export function wireTarget(path: CheckedPath, seen: readonly (readonly [string, number, number])[] = []): WireTarget {
  const internals = readCheckedPath(path);
  const chain = guardChain(internals);
  for (const entry of seen) chain.set(entry[0], entry);
  return { root: internals.root, rootDev: internals.rootIdentity.dev, rootIno: internals.rootIdentity.ino, path: internals.realPath, chain: [...chain.values()] };
}

/** The error a walk's failure is for the search of `path`: the wording every other operation of this file system uses. */
export function failureError(failure: WireFailure, path: CheckedPath): ToolError {
  const { displayPath } = path;
  if (failure.changed === 'root') return rootChanged(displayPath, readCheckedPath(path).root);
  if (failure.changed === 'directory') return directoryChanged(displayPath);
  return toolErrorFromErrno(Object.assign(new Error(failure.code), { code: failure.code }), { operation: 'searching', displayPath });
}

/** The file system's side of a tree search: only the backend may open a CheckedPath. */
export const searchTargets: SearchTargets = { target: wireTarget, failure: failureError };
