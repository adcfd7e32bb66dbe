import { describeFileSystemContract } from '../src/contract-suite/index.ts';
import { makeNodeFixture } from './fixtures/node-fixture.ts';

// The fallback of hosts without /proc/self/fd, forced here so it is tested where the handles exist too (docs/decisions/0009).
describeFileSystemContract('NodeFileSystem (checked paths, no directory handles)', () => makeNodeFixture({ directoryHandles: 'never' }));
