import { describeFileSystemContract } from '../src/contract-suite/index.ts';
import { makeMemoryFixture } from './fixtures/memory-fixture.ts';

describeFileSystemContract('MemoryFileSystem', () => makeMemoryFixture());
