import { readdir, readFile } from 'node:fs/promises';
import { TurnScope } from '@openwork/tool-contract';
import type { ToolExecutionOptions, ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
import { aiSdkTools } from '../src/adapters/ai-sdk.ts';
import { loopToolset } from './loop-tools.ts';

function execution(toolCallId: string, abortSignal?: AbortSignal): ToolExecutionOptions<unknown> {
  return { toolCallId, messages: [], context: {}, ...(abortSignal ? { abortSignal } : {}) };
}

describe('aiSdkTools', () => {
  it('gives one AI SDK tool per definition, with the same description and JSON schema', async () => {
    const toolset = loopToolset();
    const tools: ToolSet = aiSdkTools(toolset);
    expect(Object.keys(tools)).toEqual(toolset.names);
    const read = aiSdkTools(toolset).read;
    expect(read?.description).toBe('Reads a file.');
    const schema = read?.inputSchema as { jsonSchema: unknown } | undefined;
    expect(await Promise.resolve(schema?.jsonSchema)).toEqual(toolset.definitions[0]?.inputSchema);
  });

  it('execute runs FinalizedToolset.call and returns the model text, errors included', async () => {
    const tools = aiSdkTools(loopToolset());
    expect(await tools.read?.execute({ path: 'README.md' }, execution('t1'))).toBe('# greeter\n');
    expect(await tools.read?.execute({ path: 'nope' }, execution('t2'))).toBe('Error [not_found]: there is no file at nope');
    expect(await tools.read?.execute({ file: 'README.md' }, execution('t3'))).toMatch(/^Error \[invalid_input\]/);
  });

  it('the SDK abort signal cancels the running call', async () => {
    const controller = new AbortController();
    const turn = new TurnScope();
    const pending = aiSdkTools(loopToolset(), { turn }).wait?.execute({}, execution('t1', controller.signal));
    setTimeout(() => controller.abort(), 10);
    expect(await pending).toMatch(/^Error \[cancelled\]/);
    expect(turn.activeCalls).toBe(0);
  });

  it('a cancelled turn cancels the call too, with or without the SDK signal', async () => {
    const turn = new TurnScope();
    const tools = aiSdkTools(loopToolset(), { turn });
    const pending = Promise.all([tools.wait?.execute({}, execution('t1', new AbortController().signal)), tools.wait?.execute({}, execution('t2'))]);
    setTimeout(() => turn.cancel(), 10);
    for (const text of await pending) expect(text).toMatch(/^Error \[cancelled\]/);
  });

  it('keeps artifacts out of the model text and hands them to onResult', async () => {
    const artifacts: unknown[] = [];
    const tools = aiSdkTools(loopToolset(), { onResult: (result) => artifacts.push(...result.artifacts) });
    const text = await tools.write?.execute({ path: 'a.txt', content: 'x' }, execution('t1'));
    expect(text).toBe('wrote a.txt');
    expect(artifacts).toHaveLength(1);
  });

  it('asks the policy with the SDK tool call id', async () => {
    const ids: string[] = [];
    const tools = aiSdkTools(loopToolset(), {
      authorize: (request) => (ids.push(request.callId), Promise.resolve({ verdict: 'deny', reason: 'no writes here', rule: 'deny' })),
    });
    expect(await tools.write?.execute({ path: 'a.txt', content: 'x' }, execution('call-7'))).toBe('Error [denied]: write was not run: no writes here');
    expect(ids).toEqual(['call-7']);
  });
});

describe('the root entry', () => {
  it('never imports ai, an optional peer: only the ai-sdk subpath does', async () => {
    const source = new URL('../src/', import.meta.url);
    const files = (await readdir(source, { recursive: true })).filter((file) => file.endsWith('.ts'));
    const importers: string[] = [];
    for (const file of files) {
      if (/from 'ai'|import\('ai'\)/.test(await readFile(new URL(file, source), 'utf8'))) importers.push(file.replaceAll('\\', '/'));
    }
    expect(importers).toEqual(['adapters/ai-sdk.ts']);
    expect(await readFile(new URL('index.ts', source), 'utf8')).not.toContain('ai-sdk');
  });
});
