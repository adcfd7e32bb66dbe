import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { CacheBudget, serveSearchWorker, type SharedSearchMemory } from '@openwork/tree-search/worker';
import { nodeSearchHost } from './node-search-host.ts';

// The entry of the Node file system's worker threads, bundled into
// worker-source.generated.js (scripts/bundle-search-worker.ts): the search
// engine's worker loop, walking through the Node host.

const data = (workerData ?? {}) as { handles?: boolean; cacheBudget?: SharedSearchMemory; racyMs?: number; listingBytes?: number };
const cache = data.cacheBudget === undefined ? undefined : { budget: new CacheBudget({ shared: data.cacheBudget }), ...(data.racyMs === undefined ? {} : { racyMs: data.racyMs }) };
serveSearchWorker(parentPort as MessagePort, nodeSearchHost({ handles: data.handles === true, ...(cache === undefined ? {} : { cache }), ...(data.listingBytes === undefined ? {} : { listingBytes: data.listingBytes }) }));
