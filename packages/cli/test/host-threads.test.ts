import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../src/args.ts';
import { createSession } from '../src/session.ts';

// Each MCP HTTP session has a host of its own; closing it must stop the threads its searches started, or a server
// that serves many sessions grows a worker pool per session closed. A search that may keep more than ten thousand
// results starts the workers at once.

let ws: string;

beforeAll(async () => {
  ws = await realpath(await mkdtemp(join(tmpdir(), 'cli-host-threads-')));
  for (let directory = 0; directory < 8; directory += 1) {
    await mkdir(join(ws, `d${directory}`));
    await Promise.all(Array.from({ length: 50 }, (_, file) => writeFile(join(ws, `d${directory}`, `f${file}.txt`), `needle ${file}\n`)));
  }
});
afterAll(() => rm(ws, { recursive: true, force: true }));

const threads = () => readdirSync('/proc/self/task').length;

describe.runIf(process.platform === 'linux')('a host disposed', () => {
  it('leaves no search worker thread behind, session after session', async () => {
    const options = parseArgs(['mcp', '--cwd', ws]);
    let afterFirst: number | undefined;
    for (let round = 0; round < 12; round += 1) {
      const { session, host } = await createSession(options);
      const checked = await session.paths.resolvePath('.', 'read', 'must_exist');
      const found = await session.filesystem.searchTree(checked, { mode: 'files', pattern: { source: 'needle', caseInsensitive: false }, maxResults: 20_000, maxLineChars: 200, maxFileBytes: 1 << 20, binarySniffBytes: 0 }, { guard: session.paths });
      expect(found.hits).toHaveLength(400);
      await host.dispose();
      afterFirst ??= threads();
    }
    // Node keeps a few threads of its own (the libuv pool grows once); a pool per session would add one per worker each round.
    expect(threads()).toBeLessThanOrEqual((afterFirst ?? 0) + 2);
  });
});
