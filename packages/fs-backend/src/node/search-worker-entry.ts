import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { serveSearchWorker } from '@openwork/tree-search/worker';
import { nodeSearchHost } from './node-search-host.ts';

// The entry of the Node file system's worker threads, bundled into
// worker-source.generated.js (scripts/bundle-search-worker.ts): the search
// engine's worker loop, walking through the Node host.

const handles = (workerData as { handles?: boolean } | null)?.handles === true;
serveSearchWorker(parentPort as MessagePort, nodeSearchHost({ handles }));
