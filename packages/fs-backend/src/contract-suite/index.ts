export { describeFileSystemContract } from './describe-file-system-contract.ts';
export type { FileSystemFixture } from './fixture.ts';
export type { FileSystemFixtureFactory } from './fixture.ts';
