import { TurnScope } from '@openwork/tool-contract';
import { describe, expect, it } from 'vitest';
import { runAnthropicToolUses, runGeminiFunctionCalls, runOpenAiResponsesCalls, runOpenAiToolCalls } from '../src/index.ts';
import { PICTURE_TEXT, PIXEL, pictureToolset } from './image-tools.ts';

const toolset = pictureToolset();
const turn = () => ({ turn: new TurnScope() });

describe('an image a tool returns reaches each model format as an image part, never in the text', () => {
  it('Anthropic: a tool_result with a text block and a base64 image block', async () => {
    const [block] = await runAnthropicToolUses(toolset, [{ type: 'tool_use', id: 'u1', name: 'picture', input: {} }], turn());
    expect(block?.content).toEqual([
      { type: 'text', text: PICTURE_TEXT },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } },
    ]);
  });

  it('OpenAI Chat Completions: each tool message says its images follow; one user message after them carries them as image_url data URLs', async () => {
    const calls = [
      { id: 'c1', type: 'function' as const, function: { name: 'picture', arguments: '{}' } },
      { id: 'c2', type: 'function' as const, function: { name: 'nothing', arguments: '{}' } },
      { id: 'c3', type: 'function' as const, function: { name: 'pictures', arguments: '{}' } },
    ];
    const messages = await runOpenAiToolCalls(toolset, calls, turn());
    expect(messages).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: `${PICTURE_TEXT}\n(its image follows in the next message)` },
      { role: 'tool', tool_call_id: 'c2', content: expect.stringMatching(/^Error \[unknown_tool\]/) as unknown },
      { role: 'tool', tool_call_id: 'c3', content: 'two pictures\n(its 2 images follow in the next message)' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Images returned by tool call c1:' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL}` } },
          { type: 'text', text: 'Images returned by tool call c3:' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL}` } },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL}` } },
        ],
      },
    ]);
  });

  it('OpenAI Responses: function_call_output holds input_text and input_image', async () => {
    const [item] = await runOpenAiResponsesCalls(toolset, [{ type: 'function_call', call_id: 'f1', name: 'picture', arguments: '{}' }], turn());
    expect(item?.output).toEqual([
      { type: 'input_text', text: PICTURE_TEXT },
      { type: 'input_image', image_url: `data:image/png;base64,${PIXEL}`, detail: 'auto' },
    ]);
  });

  it('Gemini: a functionResponse with the text as its output and the image as an inlineData part of its own', async () => {
    const parts = await runGeminiFunctionCalls(toolset, [{ name: 'picture', args: {}, id: 'g1' }], turn());
    expect(parts).toEqual([
      { functionResponse: { id: 'g1', name: 'picture', response: { output: PICTURE_TEXT }, parts: [{ inlineData: { mimeType: 'image/png', data: PIXEL } }] } },
    ]);
  });
});
