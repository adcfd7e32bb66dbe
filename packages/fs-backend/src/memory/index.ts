export { MemoryFileSystem } from './memory-file-system.ts';
export type { MemoryFileSystemOptions } from './memory-file-system.ts';
export type { SeedOptions } from './memory-file-system.ts';
export type { FaultCode } from './memory-faults.ts';
export type { FaultOperation } from './memory-faults.ts';
