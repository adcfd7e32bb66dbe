export type { AsyncFileSystem } from './file-system.ts';
export type { DirectoryEntry } from './file-system.ts';
export type { FileInfo } from './file-system.ts';
export type { LockOptions } from './file-system.ts';
export type { ReadFileOptions } from './file-system.ts';
export type { RemoveFileOptions } from './file-system.ts';
export type { WriteFileOptions } from './file-system.ts';
export type { WriteResult } from './file-system.ts';
