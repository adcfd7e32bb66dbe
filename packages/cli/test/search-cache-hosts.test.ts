import { SEARCH_CACHE_BYTES } from '@openwork/fs-backend/node';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../src/args.ts';
import { createHost } from '../src/session.ts';

// docs/decisions/0036: the MCP server's sessions share one budget for what searches keep; a one-shot command
// (call, tools, undo) keeps nothing, since it never reads a file twice.
describe('what a host keeps between searches', () => {
  it('a one-shot host keeps nothing; the server sessions share one budget of --search-cache', async () => {
    const oneShot = await createHost(parseArgs(['call', 'grep', '{}']));
    const first = await createHost(parseArgs(['mcp', '--search-cache', '64M']), { background: true, searchCache: true });
    const second = await createHost(parseArgs(['mcp']), { background: true, searchCache: true });
    try {
      expect(oneShot.filesystem.searchCacheMaxBytes).toBe(0);
      // The budget is the process's, made by its first server session (another test file of this worker may have
      // made it already): a later session gets that one, whatever its own --search-cache says.
      expect(first.filesystem.searchCacheMaxBytes).toBeGreaterThan(60 * 1024 * 1024);
      expect(first.filesystem.searchCacheMaxBytes).toBeLessThanOrEqual(SEARCH_CACHE_BYTES);
      expect(second.filesystem.searchCacheMaxBytes).toBe(first.filesystem.searchCacheMaxBytes);
    } finally {
      await Promise.all([oneShot.dispose(), first.dispose(), second.dispose()]);
    }
  });
});
