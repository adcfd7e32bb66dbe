export { PipeProcessBackend } from './pipe-process-backend.ts';
export type { PipeProcessBackendOptions } from './pipe-process-backend.ts';
