import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveIn, type Served } from './background-server.ts';

/** What every turn of every conversation pays for the tools: the whole `tools/list` answer, as JSON. */
const MAX_LIST_CHARS = 12_000;
const MAX_DESCRIPTION_CHARS = 2_000;

let base: string;
let served: Served;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'mcp-definitions-')));
  // The largest default toolset: mode default, with bash and its background companions.
  served = await serveIn(base);
});
afterAll(async () => {
  await served.close();
  await rm(base, { recursive: true, force: true });
});

describe('the MCP tool list (docs/contract.md §5.1)', () => {
  it(`costs under ${MAX_LIST_CHARS} characters of JSON, with no description over ${MAX_DESCRIPTION_CHARS}`, async () => {
    const listed = await served.client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(['read', 'write', 'edit', 'grep', 'glob', 'list', 'bash', 'bash_output', 'bash_kill', 'bash_write']);
    expect(JSON.stringify(listed).length).toBeLessThan(MAX_LIST_CHARS);
    for (const tool of listed.tools) expect(tool.description?.length ?? 0, tool.name).toBeLessThanOrEqual(MAX_DESCRIPTION_CHARS);
  });
});
