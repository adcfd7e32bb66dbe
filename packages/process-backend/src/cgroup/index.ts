export { cleanAbandonedCgroups } from './clean-abandoned.ts';
export type { AbandonedCleanup } from './clean-abandoned.ts';
export { detectContainment } from './detect-containment.ts';
export type { DetectContainmentOptions } from './detect-containment.ts';
