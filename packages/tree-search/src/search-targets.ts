import type { CheckedPath } from '@openwork/path-guard';
import type { ToolError } from '@openwork/tool-contract';
import type { WireFailure, WireTarget } from './search-wire.ts';

/**
 * What the search asks of the file system it runs on, besides walkers: only
 * a backend may open a CheckedPath, and a failure is worded as that backend
 * words the same failure of its other operations.
 */
export interface SearchTargets {
  /** Where `path` leads, as a walker needs it; `seen` adds directory identities met on the way. */
  target(path: CheckedPath, seen?: readonly (readonly [string, number, number])[]): WireTarget;
  /** The error a walker's failure on `path` ends the search with. */
  failure(failure: WireFailure, path: CheckedPath): ToolError;
}
