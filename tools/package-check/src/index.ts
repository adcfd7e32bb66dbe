export { packAndInstall } from './pack.ts';
export { PACKAGES } from './pack.ts';
export type { InstalledProject } from './pack.ts';
