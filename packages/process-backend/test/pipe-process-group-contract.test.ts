import { describeProcessBackendContract } from '../src/contract-suite/index.ts';
import { PipeProcessBackend } from '../src/pipe/index.ts';

// The fallback is a branch of its own (docs/decisions/0008): the same contract, less the cases only a cgroup can keep.
describeProcessBackendContract('PipeProcessBackend, process groups only', (options) => new PipeProcessBackend({ killGraceMs: 500, ...options, containment: 'process_group' }), { processGroupsOnly: true });
