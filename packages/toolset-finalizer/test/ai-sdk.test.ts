import { readdir, readFile } from 'node:fs/promises';
import { TurnScope, type ToolResult } from '@openwork/tool-contract';
import { generateText, stepCountIs, type ToolExecutionOptions, type ToolSet } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { aiSdkTools, ToolResultError } from '../src/adapters/ai-sdk.ts';
import { loopToolset } from './loop-tools.ts';

function execution(toolCallId: string, abortSignal?: AbortSignal): ToolExecutionOptions<unknown> {
  return { toolCallId, messages: [], context: {}, ...(abortSignal ? { abortSignal } : {}) };
}

async function rejection(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A mock model that calls one tool, then answers in text once it has the result. */
function modelCalling(toolName: string, input: unknown): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: [
      {
        content: [{ type: 'tool-call', toolCallId: 'call-1', toolName, input: JSON.stringify(input) }],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      },
      { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
    ],
  });
}

/** What the model was sent back for its tool call, in the second request. */
function toolOutputSeen(model: MockLanguageModelV4): unknown {
  const message = model.doGenerateCalls[1]?.prompt.find((entry) => entry.role === 'tool');
  return message?.content.map((part) => (part.type === 'tool-result' ? part.output : part));
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

  it('execute runs FinalizedToolset.call: the model text for ok, a ToolResultError carrying the result otherwise', async () => {
    const tools = aiSdkTools(loopToolset());
    expect(await tools.read?.execute({ path: 'README.md' }, execution('t1'))).toBe('# greeter\n');
    const missing = await rejection(() => tools.read?.execute({ path: 'nope' }, execution('t2')));
    expect(missing).toBeInstanceOf(ToolResultError);
    expect(missing).toMatchObject({ message: 'Error [not_found]: there is no file at nope', result: { status: 'error', callId: 't2', error: { kind: 'not_found' } } });
    await expect(tools.read?.execute({ file: 'README.md' }, execution('t3'))).rejects.toThrow(/^Error \[invalid_input\]/);
  });

  it('the SDK abort signal cancels the running call', async () => {
    const controller = new AbortController();
    const turn = new TurnScope();
    const pending = aiSdkTools(loopToolset(), { turn }).wait?.execute({}, execution('t1', controller.signal));
    setTimeout(() => controller.abort(), 10);
    await expect(pending).rejects.toThrow(/^Error \[cancelled\]/);
    expect(turn.activeCalls).toBe(0);
  });

  it('a cancelled turn cancels the call too, with or without the SDK signal', async () => {
    const turn = new TurnScope();
    const tools = aiSdkTools(loopToolset(), { turn });
    const pending = Promise.allSettled([tools.wait?.execute({}, execution('t1', new AbortController().signal)), tools.wait?.execute({}, execution('t2'))]);
    setTimeout(() => turn.cancel(), 10);
    for (const settled of await pending) expect(settled).toMatchObject({ status: 'rejected', reason: { result: { error: { kind: 'cancelled' } } } });
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
    await expect(tools.write?.execute({ path: 'a.txt', content: 'x' }, execution('call-7'))).rejects.toThrow('Error [denied]: write was not run: no writes here');
    expect(ids).toEqual(['call-7']);
  });
});

describe('aiSdkTools under generateText with the mock model', () => {
  it("a denied call is the SDK's tool-error part, and the model is sent its text as an error output", async () => {
    const model = modelCalling('write', { path: 'a.txt', content: 'x' });
    const tools = aiSdkTools(loopToolset(), { authorize: () => Promise.resolve({ verdict: 'deny', reason: 'no writes here', rule: 'deny' }) });
    const result = await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: 'write a.txt' });
    const errors = result.steps[0]?.content.filter((part) => part.type === 'tool-error') ?? [];
    expect(errors).toMatchObject([{ type: 'tool-error', toolCallId: 'call-1', toolName: 'write', input: { path: 'a.txt', content: 'x' } }]);
    expect(errors[0]?.error).toBeInstanceOf(ToolResultError);
    expect((errors[0]?.error as ToolResultError).result).toMatchObject({ status: 'denied', decision: { verdict: 'deny' }, error: { kind: 'denied' } });
    expect(toolOutputSeen(model)).toEqual([{ type: 'error-text', value: 'Error [denied]: write was not run: no writes here' }]);
    expect(result.text).toBe('done');
  });

  it('an error result is a tool-error part too; an ok one a tool-result with the model text', async () => {
    const failing = modelCalling('read', { path: 'nope' });
    await generateText({ model: failing, tools: aiSdkTools(loopToolset()), stopWhen: stepCountIs(3), prompt: 'read' });
    expect(toolOutputSeen(failing)).toEqual([{ type: 'error-text', value: 'Error [not_found]: there is no file at nope' }]);
    const working = modelCalling('read', { path: 'README.md' });
    const result = await generateText({ model: working, tools: aiSdkTools(loopToolset()), stopWhen: stepCountIs(3), prompt: 'read' });
    expect(result.steps[0]?.content.filter((part) => part.type === 'tool-result')).toMatchObject([{ toolName: 'read', output: '# greeter\n' }]);
    expect(toolOutputSeen(working)).toEqual([{ type: 'text', value: '# greeter\n' }]);
  });

  it('the abort signal given to generateText cancels the running call, which ends in a cancelled result', async () => {
    const controller = new AbortController();
    const turn = new TurnScope();
    const results: ToolResult[] = [];
    const pending = generateText({
      model: modelCalling('wait', {}),
      tools: aiSdkTools(loopToolset(), { turn, onResult: (result) => results.push(result) }),
      stopWhen: stepCountIs(3),
      abortSignal: controller.signal,
      prompt: 'wait',
    });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(results).toMatchObject([{ status: 'error', callId: 'call-1', error: { kind: 'cancelled' } }]);
    expect(turn.activeCalls).toBe(0);
  });
});

describe('the root entry', () => {
  it('never imports ai, an optional peer: only the ai-sdk subpath does', async () => {
    const importers = await sourcesImporting(/from 'ai'|import\('ai'\)/);
    expect(importers.sort()).toEqual(['adapters/ai-sdk-output.ts', 'adapters/ai-sdk.ts']);
    expect(await sourcesImporting(/from '\.\/ai-sdk-output\.ts'/)).toEqual(['adapters/ai-sdk.ts']);
    expect(await readFile(new URL('../src/index.ts', import.meta.url), 'utf8')).not.toContain('ai-sdk');
  });

  it('no source file imports a provider SDK, and the package depends on none: they are test-only', async () => {
    expect(await sourcesImporting(/from '(openai|openai-v6|@anthropic-ai\/sdk|@google\/genai)[/']/)).toEqual([]);
    const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as Record<string, Record<string, string> | undefined>;
    const runtime = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies });
    expect(runtime.sort()).toEqual(['@openwork/tool-contract', 'ai', 'typebox']);
  });
});

async function sourcesImporting(pattern: RegExp): Promise<string[]> {
  const source = new URL('../src/', import.meta.url);
  const files = (await readdir(source, { recursive: true })).filter((file) => file.endsWith('.ts'));
  const importers: string[] = [];
  for (const file of files) {
    if (pattern.test(await readFile(new URL(file, source), 'utf8'))) importers.push(file.replaceAll('\\', '/'));
  }
  return importers;
}
