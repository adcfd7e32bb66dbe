export { PtyProcessBackend } from './pty-process-backend.ts';
export type { PtyProcessBackendOptions } from './pty-process-backend.ts';
