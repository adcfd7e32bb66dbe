// The one door from a CheckedPath to a real path. Lint lets only
// @openwork/fs-backend import this subpath (eslint.config.mjs).
export { readCheckedPath } from './checked-path.ts';
export type { CheckedPathInternals } from './checked-path.ts';
export type { DirectoryIdentity } from './checked-path.ts';
