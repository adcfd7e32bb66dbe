// A PNG and a text file on disk, read by the real read tool through each
// model adapter: both reach the model's message format, the image as the
// format's image part with the file's own bytes.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  runAnthropicToolUses,
  runGeminiFunctionCalls,
  runOpenAiResponsesCalls,
  runOpenAiToolCalls,
} from '@openwork/toolset-finalizer';
import { aiSdkTools } from '@openwork/toolset-finalizer/ai-sdk';
import { generateText, modelMessageSchema, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSampleSession, type SampleSession } from '../examples/sample-session.ts';

/** A 1x1 PNG, as its bytes in base64: what the image part must carry. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PNG_TEXT = /^pixel\.png: PNG image, 1x1/;
const README = /# greeter/;

let sample: SampleSession;
beforeAll(async () => {
  sample = await openSampleSession({ names: ['read'] });
  await writeFile(join(sample.workspace, 'pixel.png'), Buffer.from(PNG, 'base64'));
});
afterAll(() => sample.close());

describe('read of a PNG and a text file through each adapter', () => {
  it('Anthropic: a tool_result with a text block and a base64 image block, and one with the text', async () => {
    const [image, text] = await runAnthropicToolUses(sample.toolset, [
      { type: 'tool_use', id: 'u1', name: 'read', input: { path: 'pixel.png' } },
      { type: 'tool_use', id: 'u2', name: 'read', input: { path: 'README.md' } },
    ]);
    expect(image?.content).toEqual([
      { type: 'text', text: expect.stringMatching(PNG_TEXT) as unknown },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
    ]);
    expect(text?.content).toMatch(README);
  });

  it('Chat Completions: two tool messages, then a user message with the image as a data URL', async () => {
    const messages = await runOpenAiToolCalls(sample.toolset, [
      { id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path":"pixel.png"}' } },
      { id: 'c2', type: 'function', function: { name: 'read', arguments: '{"path":"README.md"}' } },
    ]);
    expect(messages).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: expect.stringMatching(/^pixel\.png: PNG image[^]*its image follows in the next message/) as unknown },
      { role: 'tool', tool_call_id: 'c2', content: expect.stringMatching(README) as unknown },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Images returned by tool call c1:' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
    ]);
  });

  it('Responses: function_call_output items, the image one with input_text and input_image', async () => {
    const [image, text] = await runOpenAiResponsesCalls(sample.toolset, [
      { type: 'function_call', call_id: 'f1', name: 'read', arguments: '{"path":"pixel.png"}' },
      { type: 'function_call', call_id: 'f2', name: 'read', arguments: '{"path":"README.md"}' },
    ]);
    expect(image?.output).toEqual([
      { type: 'input_text', text: expect.stringMatching(PNG_TEXT) as unknown },
      { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
    ]);
    expect(text?.output).toMatch(README);
  });

  it('Gemini: functionResponse parts, the image as inline data of its response', async () => {
    const [image, text] = await runGeminiFunctionCalls(sample.toolset, [
      { name: 'read', args: { path: 'pixel.png' }, id: 'g1' },
      { name: 'read', args: { path: 'README.md' } },
    ]);
    expect(image).toEqual({
      functionResponse: { id: 'g1', name: 'read', response: { output: expect.stringMatching(PNG_TEXT) as unknown }, parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }] },
    });
    expect(text).toEqual({ functionResponse: { name: 'read', response: { output: expect.stringMatching(README) as unknown } } });
  });

  it('AI SDK: generateText sends the model the text and the image as a file part of the tool result', async () => {
    const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };
    const model = new MockLanguageModelV4({
      doGenerate: [
        {
          content: [
            { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: '{"path":"pixel.png"}' },
            { type: 'tool-call', toolCallId: 'c2', toolName: 'read', input: '{"path":"README.md"}' },
          ],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        },
        { content: [{ type: 'text', text: 'a pixel and a readme' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
      ],
    });
    const result = await generateText({ model, tools: aiSdkTools(sample.toolset), stopWhen: stepCountIs(3), prompt: 'Look at pixel.png and README.md' });
    expect(result.text).toBe('a pixel and a readme');
    const toolMessage = model.doGenerateCalls[1]?.prompt.find((message) => message.role === 'tool');
    const outputs = (toolMessage?.content ?? []).map((part) => (part.type === 'tool-result' ? part.output : part));
    expect(outputs).toEqual([
      {
        type: 'content',
        value: [
          { type: 'text', text: expect.stringMatching(PNG_TEXT) as unknown },
          { type: 'file', mediaType: 'image/png', data: { type: 'data', data: PNG } },
        ],
      },
      { type: 'text', value: expect.stringMatching(README) as unknown },
    ]);
    for (const message of result.steps[0]?.response.messages ?? []) expect(modelMessageSchema.safeParse(message).success).toBe(true);
  });
});
