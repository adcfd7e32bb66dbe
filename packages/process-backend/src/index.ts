export type { Availability } from './process-backend.ts';
export type { CaptureLimits } from './process-backend.ts';
export type { CapturedOutput } from './process-backend.ts';
export type { ProcessBackend } from './process-backend.ts';
export type { ProcessExit } from './process-backend.ts';
export type { ProcessStatus } from './process-backend.ts';
export type { SpawnRequest } from './process-backend.ts';
