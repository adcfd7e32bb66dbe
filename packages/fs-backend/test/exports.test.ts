import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as root from '../src/index.ts';
import * as contractSuite from '../src/contract-suite/index.ts';
import * as memory from '../src/memory/index.ts';
import * as node from '../src/node/index.ts';
import { hostModules, importGraph } from './fixtures/import-graph.ts';

describe('@openwork/fs-backend public API', () => {
  it('pins the runtime exports of every subpath', () => {
    expect(Object.keys(root).sort()).toEqual([]);
    expect(Object.keys(node).sort()).toEqual(['CacheBudget', 'NodeFileSystem', 'SEARCH_CACHE_BYTES']);
    expect(Object.keys(memory).sort()).toEqual(['MemoryFileSystem']);
    expect(Object.keys(contractSuite).sort()).toEqual(['describeFileSystemContract']);
  });

  it('the interface entry point loads nothing that touches the host', async () => {
    const graph = await importGraph(fileURLToPath(new URL('../src/index.ts', import.meta.url)));
    expect(graph.files.size).toBeGreaterThanOrEqual(2);
    expect(hostModules(graph.specifiers)).toEqual([]);
  });

  it('only the node subpath reaches node:fs', async () => {
    const graph = await importGraph(fileURLToPath(new URL('../src/node/index.ts', import.meta.url)));
    expect(hostModules(graph.specifiers)).toContain('node:fs/promises');
  });
});
