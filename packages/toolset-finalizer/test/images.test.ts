import Type from 'typebox';
import { adaptTool, defineTool, TurnScope, type ToolSessionContext } from '@openwork/tool-contract';
import { describe, expect, it } from 'vitest';
import { Registry, runAnthropicToolUses, runOpenAiResponsesCalls, runOpenAiToolCalls, runOpenAiToolCallsWithImages } from '../src/index.ts';

/** One pixel of PNG: what read returns for an image file, as an image part. */
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const picture = defineTool({
  id: 'test/picture',
  name: 'picture',
  description: 'Returns an image.',
  risk: 'read',
  input: Type.Object({}),
  effect: () => ({ kind: 'read', paths: [] }),
  execute: () => Promise.resolve({ data: {}, output: 'a.png: PNG image, 1x1 pixels', images: [{ type: 'image' as const, mediaType: 'image/png' as const, data: PIXEL }] }),
});

const session: ToolSessionContext = { workingDirectory: '/w', environment: {} };
const toolset = new Registry().register(adaptTool(picture)).finalize(session);
const turn = () => ({ turn: new TurnScope() });

describe('an image a tool returns reaches each model format as an image part, never in the text', () => {
  it('Anthropic: a tool_result with a text block and a base64 image block', async () => {
    const [block] = await runAnthropicToolUses(toolset, [{ type: 'tool_use', id: 'u1', name: 'picture', input: {} }], turn());
    expect(block?.content).toEqual([
      { type: 'text', text: 'a.png: PNG image, 1x1 pixels' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } },
    ]);
  });

  it('OpenAI Chat Completions: the tool message says the image follows; a user message carries it as an image_url data URL', async () => {
    const calls = [{ id: 'c1', type: 'function' as const, function: { name: 'picture', arguments: '{}' } }];
    const { toolMessages, imageMessage } = await runOpenAiToolCallsWithImages(toolset, calls, turn());
    expect(toolMessages[0]?.content).toContain('1 image of this result follow');
    expect(toolMessages[0]?.content).not.toContain(PIXEL);
    expect(imageMessage).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Images returned by tool call c1:' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL}` } },
      ],
    });
    expect((await runOpenAiToolCalls(toolset, calls, turn()))[0]).toEqual(toolMessages[0]);
  });

  it('OpenAI Responses: function_call_output holds input_text and input_image', async () => {
    const [item] = await runOpenAiResponsesCalls(toolset, [{ type: 'function_call', call_id: 'f1', name: 'picture', arguments: '{}' }], turn());
    expect(item?.output).toEqual([
      { type: 'input_text', text: 'a.png: PNG image, 1x1 pixels' },
      { type: 'input_image', image_url: `data:image/png;base64,${PIXEL}`, detail: 'auto' },
    ]);
  });
});
