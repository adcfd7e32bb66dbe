import type { TreeSearchRequest } from './search-types.ts';
import type { WireSpec } from './search-wire.ts';

/** The request as the walkers receive it: checked, with its defaults filled in. */
export function wireSpec(request: TreeSearchRequest): WireSpec {
  if (!Number.isSafeInteger(request.maxResults) || request.maxResults < 1) throw new RangeError(`maxResults must be a positive integer, got ${request.maxResults}`);
  const offset = request.offset ?? 0;
  if (!Number.isSafeInteger(offset) || offset < 0 || offset >= request.maxResults) throw new RangeError(`offset must be an integer from 0 below maxResults, got ${offset}`);
  const skip = request.skip ?? 0;
  if (!Number.isSafeInteger(skip) || skip < 0) throw new RangeError(`skip must be a non-negative integer, got ${skip}`);
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
