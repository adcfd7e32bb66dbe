// An image result through each SDK's own client (test/consumer/*.ts): the
// SDK sends our answer in its next request, and that request holds the image
// where the API takes it.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, type Content } from '@google/genai';
import OpenAI from 'openai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cannedFetch } from './canned-fetch.ts';
import { aiSdkOutputs } from './consumer/ai-sdk.ts';
import { anthropicTurn } from './consumer/anthropic.ts';
import { geminiLoopTurn } from './consumer/gemini.ts';
import { chatTurn } from './consumer/openai.ts';
import { PICTURE_TEXT, PIXEL, pictureToolset } from './image-tools.ts';

const dataUrl = `data:image/png;base64,${PIXEL}`;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('an image result through the SDK clients', () => {
  it('Gemini: the next request carries the functionResponse with the image as inline data of the response', async () => {
    const canned = cannedFetch([
      { candidates: [{ content: { role: 'model', parts: [{ functionCall: { id: 'fc1', name: 'picture', args: {} } }] }, finishReason: 'STOP' }] },
      { candidates: [{ content: { role: 'model', parts: [{ text: 'a red pixel' }] }, finishReason: 'STOP' }] },
    ]);
    vi.stubGlobal('fetch', canned.fetch);
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'Look at a.png' }] }];
    const final = await geminiLoopTurn(new GoogleGenAI({ apiKey: 'test' }), pictureToolset(), contents);
    expect(final.text).toBe('a red pixel');
    expect((canned.requests[1]?.body.contents as unknown[])[2]).toEqual({
      role: 'user',
      parts: [{ functionResponse: { id: 'fc1', name: 'picture', response: { output: PICTURE_TEXT }, parts: [{ inlineData: { mimeType: 'image/png', data: PIXEL } }] } }],
    });
  });

  it('Chat Completions: the tool message, then a user message with the image as an image_url data URL', async () => {
    const completion = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-5',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          logprobs: null,
          message: { role: 'assistant', content: null, refusal: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'picture', arguments: '{}' } }] },
        },
      ],
    };
    const canned = cannedFetch([completion]);
    const client = new OpenAI({ apiKey: 'test', fetch: canned.fetch, maxRetries: 0 });
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Look at a.png' }];
    await chatTurn(client, pictureToolset(), messages);
    // The next turn sends them as they are.
    await client.chat.completions.create({ model: 'gpt-5', messages });
    expect((canned.requests[1]?.body.messages as unknown[]).slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: `${PICTURE_TEXT}\n(its image follows in the next message)` },
      { role: 'user', content: [{ type: 'text', text: 'Images returned by tool call call_1:' }, { type: 'image_url', image_url: { url: dataUrl } }] },
    ]);
  });

  it('Anthropic: the tool_result holds a text block and a base64 image block', async () => {
    const message = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'picture', input: {} }],
    };
    const canned = cannedFetch([message]);
    const client = new Anthropic({ apiKey: 'test', fetch: canned.fetch, maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Look at a.png' }];
    await anthropicTurn(client, pictureToolset(), messages);
    await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages });
    expect((canned.requests[1]?.body.messages as unknown[])[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: [
            { type: 'text', text: PICTURE_TEXT },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } },
          ],
        },
      ],
    });
  });

  it('AI SDK: the tool result keeps the text and the images for the product', async () => {
    const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };
    const model = new MockLanguageModelV4({
      doGenerate: [
        { content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'picture', input: '{}' }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] },
        { content: [{ type: 'text', text: 'a red pixel' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
      ],
    });
    expect(await aiSdkOutputs(model, pictureToolset())).toEqual([`${PICTURE_TEXT} [1 image]`]);
  });
});
