import { describeFileSystemContract } from '../src/contract-suite/index.ts';
import { makeNodeFixture } from './fixtures/node-fixture.ts';

describeFileSystemContract('NodeFileSystem', makeNodeFixture);
