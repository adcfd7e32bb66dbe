import { afterEach, beforeEach, describe } from 'vitest';
import { makeWorld, type ContractWorld } from './contract-helpers.ts';
import type { FileSystemFixture, FileSystemFixtureFactory } from './fixture.ts';
import { lockContract } from './lock-contract.ts';
import { readChunksContract } from './read-chunks-contract.ts';
import { readContract } from './read-contract.ts';
import { swapContract } from './swap-contract.ts';
import { writeContract } from './write-contract.ts';

/**
 * The AsyncFileSystem contract, one suite for every implementation (the Node
 * and in-memory file systems run the same bodies). `make` gives a fresh
 * fixture per test; it is cleaned up after.
 */
export function describeFileSystemContract(name: string, make: FileSystemFixtureFactory): void {
  describe(`AsyncFileSystem contract: ${name}`, () => {
    let fixture: FileSystemFixture | undefined;
    let world: ContractWorld | undefined;

    beforeEach(async () => {
      fixture = await make();
      world = await makeWorld(fixture);
    });

    afterEach(async () => {
      await fixture?.cleanup();
      fixture = undefined;
      world = undefined;
    });

    const current = (): ContractWorld => {
      if (!world) throw new Error('the contract world is made in beforeEach');
      return world;
    };

    describe('read, stat and list', () => readContract(current));
    describe('streamed read', () => readChunksContract(current));
    describe('atomic write and remove', () => writeContract(current));
    describe('locks', () => lockContract(current));
    describe('swaps after the check', () => swapContract(current));
  });
}
