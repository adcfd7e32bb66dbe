// vitest's global setup for every package (vitest.shared.ts): the search
// worker's bundle is a build output, so a run from a fresh clone, or after a
// change to the sources it is made from, makes it before any test starts a
// worker. docs/decisions/0035-worker-bundle-built.md.
import { ensureSearchWorker } from './bundle-search-worker.ts';

export default async function setup(): Promise<void> {
  await ensureSearchWorker();
}
