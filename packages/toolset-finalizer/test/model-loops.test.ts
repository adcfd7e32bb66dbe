import { readFile } from 'node:fs/promises';
import { TurnScope, type ToolResult } from '@openwork/tool-contract';
import { describe, expect, it } from 'vitest';
import {
  runAnthropicToolUses,
  runOpenAiResponsesCalls,
  runOpenAiToolCalls,
  type AnthropicContentBlock,
  type AnthropicToolResultBlock,
  type OpenAiFunctionCallOutputItem,
  type OpenAiResponseOutputItem,
  type OpenAiToolCall,
  type OpenAiToolMessage,
} from '../src/index.ts';
import { loopToolset } from './loop-tools.ts';

async function fixture<T>(name: string): Promise<T> {
  return JSON.parse(await readFile(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as T;
}

interface AnthropicTranscript {
  readonly assistant: { readonly content: AnthropicContentBlock[] };
  readonly toolResults: AnthropicToolResultBlock[];
}

interface OpenAiTranscript {
  readonly assistant: { readonly tool_calls: OpenAiToolCall[] };
  readonly toolMessages: OpenAiToolMessage[];
}

interface OpenAiResponsesTranscript {
  readonly response: { readonly output: OpenAiResponseOutputItem[] };
  readonly outputs: OpenAiFunctionCallOutputItem[];
}

describe('runAnthropicToolUses', () => {
  it('replays a recorded assistant message: one tool_result per tool_use, in order, errors marked', async () => {
    const transcript = await fixture<AnthropicTranscript>('anthropic-transcript.json');
    const turn = new TurnScope();
    const blocks = await runAnthropicToolUses(loopToolset(), transcript.assistant.content, { turn });
    expect(blocks).toEqual(transcript.toolResults);
    expect(turn.activeCalls).toBe(0);
  });

  it('running the calls at once keeps the model order', async () => {
    const transcript = await fixture<AnthropicTranscript>('anthropic-transcript.json');
    const blocks = await runAnthropicToolUses(loopToolset(), transcript.assistant.content, { parallel: true });
    expect(blocks).toEqual(transcript.toolResults);
  });

  it('sends the model text only: artifacts go to onResult, never into a tool_result', async () => {
    const seen: ToolResult[] = [];
    const blocks = await runAnthropicToolUses(
      loopToolset(),
      [{ type: 'tool_use', id: 'w1', name: 'write', input: { path: 'a.txt', content: 'x' } }],
      { onResult: (result) => seen.push(result) },
    );
    expect(blocks).toEqual([{ type: 'tool_result', tool_use_id: 'w1', content: 'wrote a.txt' }]);
    expect(JSON.stringify(blocks)).not.toContain('secret-sha');
    expect(seen.map((result) => result.artifacts.length)).toEqual([1]);
  });

  it('asks the policy before each call; a denial runs nothing and is an error block', async () => {
    const asked: string[] = [];
    const seen: ToolResult[] = [];
    const blocks = await runAnthropicToolUses(
      loopToolset(),
      [
        { type: 'tool_use', id: 'r1', name: 'read', input: { path: 'README.md' } },
        { type: 'tool_use', id: 'w1', name: 'write', input: { path: 'a.txt', content: 'x' } },
      ],
      {
        authorize: (request) => {
          asked.push(request.definition.name);
          return Promise.resolve(
            request.definition.risk === 'read'
              ? { verdict: 'allow', reason: 'reads are allowed', rule: 'read' }
              : { verdict: 'ask', reason: 'writes need approval', rule: 'ask', approved: false },
          );
        },
        onResult: (result) => seen.push(result),
      },
    );
    expect(asked).toEqual(['read', 'write']);
    expect(blocks[1]).toEqual({ type: 'tool_result', tool_use_id: 'w1', content: 'Error [denied]: write was not run: writes need approval', is_error: true });
    expect(seen[1]?.artifacts).toEqual([]);
  });

  it('a cancelled turn ends the running call with a cancelled result', async () => {
    const turn = new TurnScope();
    const pending = runAnthropicToolUses(loopToolset(), [{ type: 'tool_use', id: 'x1', name: 'wait', input: {} }], { turn });
    setTimeout(() => turn.cancel(), 10);
    const [block] = await pending;
    expect(block).toMatchObject({ tool_use_id: 'x1', is_error: true });
    expect(block?.content).toMatch(/^Error \[cancelled\]/);
    expect(turn.activeCalls).toBe(0);
  });

  it('a deadline ends the call as timed_out', async () => {
    const [block] = await runAnthropicToolUses(loopToolset(), [{ type: 'tool_use', id: 'x1', name: 'wait', input: {} }], { timeoutMs: 20 });
    expect(block?.content).toMatch(/^Error \[timed_out\]/);
  });

  it('an assistant message without tool_use blocks gives no results', async () => {
    expect(await runAnthropicToolUses(loopToolset(), [{ type: 'text', text: 'done' }])).toEqual([]);
  });
});

describe('runOpenAiToolCalls', () => {
  it('replays recorded tool_calls: one tool message per call, in order', async () => {
    const transcript = await fixture<OpenAiTranscript>('openai-transcript.json');
    const messages = await runOpenAiToolCalls(loopToolset(), transcript.assistant.tool_calls);
    expect(messages).toEqual(transcript.toolMessages);
  });

  it('arguments that are not JSON are invalid_input, and neither the policy nor the tool runs', async () => {
    let asked = false;
    const seen: ToolResult[] = [];
    const [message] = await runOpenAiToolCalls(
      loopToolset(),
      [{ id: 'c1', type: 'function', function: { name: 'write', arguments: '{"path": "a.txt", "content": ' } }],
      { authorize: () => ((asked = true), Promise.resolve({ verdict: 'allow', reason: '', rule: '' })), onResult: (result) => seen.push(result) },
    );
    expect(message?.content).toMatch(/^Error \[invalid_input\]: the arguments of write are not JSON/);
    expect(asked).toBe(false);
    expect(seen).toMatchObject([{ status: 'error', tool: 'write', toolId: 'test/write', callId: 'c1', error: { kind: 'invalid_input' }, artifacts: [] }]);
  });

  it('JSON that is not an object is the schema’s invalid_input', async () => {
    const [message] = await runOpenAiToolCalls(loopToolset(), [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '"README.md"' } }]);
    expect(message?.content).toMatch(/^Error \[invalid_input\]: invalid input for read/);
  });

  it('a custom tool call is answered in its place and runs nothing; absent tool_calls give no messages', async () => {
    const seen: ToolResult[] = [];
    const messages = await runOpenAiToolCalls(
      loopToolset(),
      [
        { id: 'c1', type: 'custom', custom: { name: 'write', input: 'a.txt' } },
        { id: 'c2', type: 'custom', custom: { name: 'patch', input: '*** Begin Patch' } },
        { id: 'c3', type: 'function', function: { name: 'list', arguments: '{}' } },
      ],
      { onResult: (result) => seen.push(result) },
    );
    expect(messages).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: 'Error [invalid_input]: write is a function tool; call it with JSON arguments that match its schema' },
      { role: 'tool', tool_call_id: 'c2', content: 'Error [unknown_tool]: there is no tool named "patch"; available tools: read, list, write, wait' },
      { role: 'tool', tool_call_id: 'c3', content: 'README.md\nsrc/greet.ts' },
    ]);
    expect(seen.map((result) => result.artifacts.length)).toEqual([0, 0, 0]);
    expect(await runOpenAiToolCalls(loopToolset(), undefined)).toEqual([]);
  });
});

describe('runOpenAiResponsesCalls', () => {
  it('replays a recorded response: one function_call_output per function_call, in order, other items skipped', async () => {
    const transcript = await fixture<OpenAiResponsesTranscript>('openai-responses-transcript.json');
    const turn = new TurnScope();
    expect(await runOpenAiResponsesCalls(loopToolset(), transcript.response.output, { turn })).toEqual(transcript.outputs);
    expect(await runOpenAiResponsesCalls(loopToolset(), transcript.response.output, { parallel: true })).toEqual(transcript.outputs);
    expect(turn.activeCalls).toBe(0);
  });

  it('asks the policy with the call_id and keeps artifacts out of the output', async () => {
    const ids: string[] = [];
    const seen: ToolResult[] = [];
    const outputs = await runOpenAiResponsesCalls(
      loopToolset(),
      [{ type: 'function_call', call_id: 'w1', name: 'write', arguments: '{"path":"a.txt","content":"x"}' }],
      { authorize: (request) => (ids.push(request.callId), Promise.resolve({ verdict: 'allow', reason: '', rule: '' })), onResult: (result) => seen.push(result) },
    );
    expect(outputs).toEqual([{ type: 'function_call_output', call_id: 'w1', output: 'wrote a.txt' }]);
    expect(ids).toEqual(['w1']);
    expect(seen[0]?.artifacts).toHaveLength(1);
  });

  it('a cancelled turn ends the running call with a cancelled output', async () => {
    const turn = new TurnScope();
    const pending = runOpenAiResponsesCalls(loopToolset(), [{ type: 'function_call', call_id: 'x1', name: 'wait', arguments: '{}' }], { turn });
    setTimeout(() => turn.cancel(), 10);
    const [item] = await pending;
    expect(item?.output).toMatch(/^Error \[cancelled\]/);
  });
});
