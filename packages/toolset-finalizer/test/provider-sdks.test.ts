// The consumer files (test/consumer/*.ts), run against the real SDK clients
// with a fetch that answers from recorded-shape responses: each SDK builds
// its request from our definitions and hands our loops its own objects.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import OpenAiV6 from 'openai-v6';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cannedFetch } from './canned-fetch.ts';
import { aiSdkTurn } from './consumer/ai-sdk.ts';
import { anthropicTurn } from './consumer/anthropic.ts';
import { geminiTurn } from './consumer/gemini.ts';
import { chatTurn, parsedChatTurn, responsesTurn } from './consumer/openai.ts';
import { chatTurn as chatTurnV6 } from './consumer/openai-v6.ts';
import { loopToolset } from './loop-tools.ts';
import { schemaToolset } from './schema-tools.ts';

/** What the search tool is asked for, written the way strict mode writes it, and what it receives. */
const strictArguments = JSON.stringify({ pattern: 'greet', path: null, mode: 'count', limit: null, label: null, filters: [{ glob: '*.ts', negate: null }] });
const received = { pattern: 'greet', mode: 'count', label: null, filters: [{ glob: '*.ts' }] };

function chatCompletion(toolCalls: unknown[]): unknown {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-5',
    choices: [{ index: 0, finish_reason: 'tool_calls', logprobs: null, message: { role: 'assistant', content: null, refusal: null, tool_calls: toolCalls } }],
  };
}

const searchCall = { id: 'call_1', type: 'function', function: { name: 'search', arguments: strictArguments } };
const customCall = { id: 'call_2', type: 'custom', custom: { name: 'search', input: 'greet' } };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Anthropic SDK', () => {
  it('sends our definitions, and our loop answers its tool_use blocks in the next user message', async () => {
    const canned = cannedFetch([
      {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
        content: [
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'README.md' }, caller: { type: 'direct' } },
        ],
      },
    ]);
    const client = new Anthropic({ apiKey: 'test', fetch: canned.fetch, maxRetries: 0 });
    const toolset = loopToolset();
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Read README.md' }];
    await anthropicTurn(client, toolset, messages);
    expect(canned.requests[0]?.body.tools).toEqual(toolset.anthropicDefinitions());
    expect(messages[2]).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '# greeter\n' }] });
  });
});

describe('Chat Completions', () => {
  // What the tool messages after the user's and the assistant's say.
  const expectedAnswers = [
    { role: 'tool', tool_call_id: 'call_1', content: JSON.stringify(received) },
    { role: 'tool', tool_call_id: 'call_2', content: 'Error [invalid_input]: search is a function tool; call it with JSON arguments that match its schema' },
  ];

  it('openai 7: strict definitions go out, strict nulls come back absent, a custom call is answered', async () => {
    const canned = cannedFetch([chatCompletion([searchCall, customCall])]);
    const toolset = schemaToolset();
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Count greet in the TypeScript files' }];
    await chatTurn(new OpenAI({ apiKey: 'test', fetch: canned.fetch, maxRetries: 0 }), toolset, messages);
    expect(canned.requests[0]?.body.tools).toEqual(JSON.parse(JSON.stringify(toolset.openAiDefinitions({ strict: true }))));
    expect(messages.slice(2)).toEqual(expectedAnswers);
  });

  it('openai 6: the same', async () => {
    const canned = cannedFetch([chatCompletion([searchCall, customCall])]);
    const toolset = schemaToolset();
    const messages: OpenAiV6.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Count greet in the TypeScript files' }];
    await chatTurnV6(new OpenAiV6({ apiKey: 'test', fetch: canned.fetch, maxRetries: 0 }), toolset, messages);
    expect(canned.requests[0]?.body.tools).toEqual(JSON.parse(JSON.stringify(toolset.openAiDefinitions({ strict: true }))));
    expect(messages.slice(2)).toEqual(expectedAnswers);
  });
});

describe('openai 7 beyond chat', () => {
  it("chat.completions.parse accepts the strict definitions (it refuses any that are not) and parses the model's arguments", async () => {
    const canned = cannedFetch([chatCompletion([searchCall])]);
    const client = new OpenAI({ apiKey: 'test', fetch: canned.fetch, maxRetries: 0 });
    const toolset = schemaToolset();
    expect(await parsedChatTurn(client, toolset)).toEqual([{ role: 'tool', tool_call_id: 'call_1', content: JSON.stringify(received) }]);
    // The SDK may refuse before or after it returns a promise; either way the call fails.
    const plain = Promise.resolve().then(() =>
      client.chat.completions.parse({ model: 'gpt-5', messages: [{ role: 'user', content: 'x' }], tools: toolset.openAiDefinitions() }),
    );
    await expect(plain).rejects.toThrow(/not marked with `strict: true`/);
  });

  it('Responses: the function_call items run and their outputs go back with previous_response_id', async () => {
    const response = (id: string, output: unknown[]): unknown => ({ id, object: 'response', created_at: 1, status: 'completed', model: 'gpt-5', output, tools: [] });
    const canned = cannedFetch([
      response('resp_1', [
        { type: 'reasoning', id: 'rs_1', summary: [] },
        { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'search', arguments: strictArguments, status: 'completed' },
      ]),
      response('resp_2', [
        { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done', annotations: [] }] },
      ]),
    ]);
    const client = new OpenAI({ apiKey: 'test', fetch: canned.fetch, maxRetries: 0 });
    const toolset = schemaToolset();
    const final = await responsesTurn(client, toolset, 'Count greet in the TypeScript files');
    expect(final.output_text).toBe('done');
    expect(canned.requests[0]?.body.tools).toEqual(JSON.parse(JSON.stringify(toolset.openAiResponsesDefinitions())));
    expect(canned.requests[1]?.body).toMatchObject({
      previous_response_id: 'resp_1',
      input: [{ type: 'function_call_output', call_id: 'call_1', output: JSON.stringify(received) }],
    });
  });
});

describe('Gemini SDK', () => {
  it('takes our declarations as they are; what it sends has no const, no additionalProperties and no type beside anyOf', async () => {
    const canned = cannedFetch([
      { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'search', args: { pattern: 'greet' } } }] }, finishReason: 'STOP' }] },
    ]);
    vi.stubGlobal('fetch', canned.fetch);
    const toolset = schemaToolset();
    const response = await geminiTurn(new GoogleGenAI({ apiKey: 'test' }), toolset);
    expect(response.functionCalls).toEqual([{ name: 'search', args: { pattern: 'greet' } }]);
    const sent = JSON.stringify(canned.requests[0]?.body);
    expect(sent).not.toMatch(/"const"|"additionalProperties"/);
    const [tool] = canned.requests[0]?.body.tools as { functionDeclarations: { name: string; parameters?: Record<string, unknown> }[] }[];
    expect(tool?.functionDeclarations.map((declaration) => declaration.name)).toEqual(['search', 'status']);
    expect(tool?.functionDeclarations[0]?.parameters).toMatchObject({
      type: 'OBJECT',
      required: ['pattern'],
      properties: { mode: { type: 'STRING', enum: ['content', 'count'] }, label: { type: 'STRING', nullable: true } },
    });
  });
});

describe('AI SDK', () => {
  it("the consumer reads our error kind off the SDK's tool-error part", async () => {
    const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };
    const model = new MockLanguageModelV4({
      doGenerate: [
        {
          content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: '{"path":"missing.md"}' }],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        },
        { content: [{ type: 'text', text: 'no such file' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
      ],
    });
    expect(await aiSdkTurn(model, loopToolset())).toEqual(['not_found']);
  });
});
