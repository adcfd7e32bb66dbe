import { describe, expect, it } from 'vitest';
import * as root from '../src/index.ts';
import * as cgroup from '../src/cgroup/index.ts';
import * as contractSuite from '../src/contract-suite/index.ts';
import * as pipe from '../src/pipe/index.ts';
import * as pty from '../src/pty/index.ts';

describe('@openwork/process-backend public API', () => {
  it('pins the runtime exports of every subpath', () => {
    expect(Object.keys(root).sort()).toEqual(['BoundedCapture', 'ChunkDecoder', 'DEFAULT_CAPTURE_LIMITS', 'DEFAULT_PROCESS_LIMITS']);
    expect(Object.keys(cgroup).sort()).toEqual(['cleanAbandonedCgroups', 'detectContainment']);
    expect(Object.keys(pipe).sort()).toEqual(['PipeProcessBackend']);
    expect(Object.keys(pty).sort()).toEqual(['PtyProcessBackend']);
    expect(Object.keys(contractSuite).sort()).toEqual(['describeProcessBackendContract']);
  });
});
