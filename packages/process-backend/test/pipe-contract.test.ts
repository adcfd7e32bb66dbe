import { describeProcessBackendContract } from '../src/contract-suite/index.ts';
import { PipeProcessBackend } from '../src/pipe/index.ts';

describeProcessBackendContract('PipeProcessBackend', (options) => new PipeProcessBackend({ killGraceMs: 500, ...options }));
