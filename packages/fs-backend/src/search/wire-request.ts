import type { CheckedPath } from '@openwork/path-guard';
import { readCheckedPath } from '@openwork/path-guard/backend';
import type { ToolError } from '@openwork/tool-contract';
import { directoryChanged } from '../shared/read-directory.ts';
import { rootChanged } from '../shared/directory-walk.ts';
import { toolErrorFromErrno } from '../shared/errno.ts';
import type { TreeSearchRequest } from './search-types.ts';
import type { WireFailure, WireSpec, WireTarget } from './search-wire.ts';

/** Where a CheckedPath leads, as a walker needs it (docs/decisions/0009). */
export function wireTarget(path: CheckedPath, seen: readonly (readonly [string, number, number])[] = []): WireTarget {
  const internals = readCheckedPath(path);
  const chain = new Map<string, readonly [string, number, number]>(internals.directories.map((directory) => [directory.path, [directory.path, directory.dev, directory.ino]]));
  const { identity } = internals;
  if (identity !== null && identity.ino !== 0 && identity.kind === 'directory') chain.set(internals.realPath, [internals.realPath, identity.dev, identity.ino]);
  for (const entry of seen) chain.set(entry[0], entry);
  return { root: internals.root, rootDev: internals.rootIdentity.dev, rootIno: internals.rootIdentity.ino, path: internals.realPath, chain: [...chain.values()] };
}

export function wireSpec(request: TreeSearchRequest): WireSpec {
  if (!Number.isSafeInteger(request.maxResults) || request.maxResults < 1) throw new RangeError(`maxResults must be a positive integer, got ${request.maxResults}`);
  const offset = request.offset ?? 0;
  if (!Number.isSafeInteger(offset) || offset < 0 || offset >= request.maxResults) throw new RangeError(`offset must be an integer from 0 below maxResults, got ${offset}`);
  if (request.mode !== 'paths' && request.pattern === undefined) throw new TypeError(`a ${request.mode} search needs a pattern`);
  const content = request.mode === 'content';
  const context = content ? (request.context ?? 0) : 0;
  return {
    mode: request.mode,
    pattern: request.pattern,
    context,
    before: content ? (request.before ?? context) : 0,
    after: content ? (request.after ?? context) : 0,
    filter: request.filter,
    nameGlobs: request.nameGlobs,
    ignoreCase: request.ignore?.ignoreCase,
    capacity: request.maxResults + 1,
    offset,
    maxResultBytes: request.maxResultBytes ?? Number.POSITIVE_INFINITY,
    maxLineChars: request.maxLineChars,
    maxFileBytes: request.maxFileBytes,
    binarySniffBytes: request.binarySniffBytes,
  };
}

export function failureError(failure: WireFailure, path: CheckedPath): ToolError {
  const { displayPath } = path;
  if (failure.changed === 'root') return rootChanged(displayPath, readCheckedPath(path).root);
  if (failure.changed === 'directory') return directoryChanged(displayPath);
  return toolErrorFromErrno(Object.assign(new Error(failure.code), { code: failure.code }), { operation: 'searching', displayPath });
}
