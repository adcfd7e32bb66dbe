import { describe, expect, it } from 'vitest';
import { parseArgs } from '../src/args.ts';
import { UsageError } from '../src/usage-error.ts';

const MIB = 1024 * 1024;

describe('--search-cache (docs/contract.md §6)', () => {
  it('takes a size in bytes or with K, M or G, at least 2M; unset, the default budget applies', () => {
    expect(parseArgs(['mcp', '--search-cache', '64M']).searchCacheBytes).toBe(64 * MIB);
    expect(parseArgs(['mcp', '--search-cache', '1g']).searchCacheBytes).toBe(1024 * MIB);
    expect(parseArgs(['mcp']).searchCacheBytes).toBeUndefined();
    for (const bad of ['1M', '0', '12X', '-5M', '']) expect(() => parseArgs(['mcp', '--search-cache', bad])).toThrow(UsageError);
  });
});
