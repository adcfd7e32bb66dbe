export { CacheBudget } from '@openwork/tree-search/worker';
export type { DirectoryHandleSupport } from './directory-handles.ts';
export { NodeFileSystem } from './node-file-system.ts';
export { SEARCH_CACHE_BYTES } from './node-file-system.ts';
export type { NodeFileSystemOptions } from './node-file-system.ts';
