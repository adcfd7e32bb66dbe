export { parseArgs } from './args.ts';
export type { CliOptions } from './args.ts';
export type { PermissionMode } from './args.ts';
export { runCli } from './main.ts';
export { createRegistry } from './toolset.ts';
export { finalizeFor } from './toolset.ts';
