// The Vercel AI SDK: generateText with the SDK's own mock model, which calls
// read twice and then stops; the tool message of its second request is what
// the model is sent (the text file's text, the image as a media part).
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { aiSdkTools } from '@openwork/toolset-finalizer/ai-sdk';
import { READS } from './fixture.mjs';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

export default async function aiSdk({ toolset }) {
  const calls = READS.map((read) => ({ type: 'tool-call', toolCallId: read.id, toolName: 'read', input: JSON.stringify(read.input) }));
  const model = new MockLanguageModelV4({
    doGenerate: [
      { content: calls, finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] },
      { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
    ],
  });
  await generateText({ model, tools: aiSdkTools(toolset), stopWhen: stepCountIs(3), prompt: 'read both' });
  const texts = [];
  const images = [];
  const toolMessage = model.doGenerateCalls[1]?.prompt.find((message) => message.role === 'tool');
  for (const part of toolMessage?.content ?? []) {
    if (part.type !== 'tool-result') continue;
    const output = part.output;
    if (output.type === 'text' || output.type === 'error-text') texts.push(output.value);
    else if (output.type === 'json') texts.push(JSON.stringify(output.value));
    else if (output.type === 'content') {
      for (const item of output.value) {
        if (item.type === 'text') texts.push(item.text);
        else if (typeof item.mediaType === 'string' && item.mediaType.startsWith('image/')) images.push({ mediaType: item.mediaType, data: typeof item.data === 'string' ? item.data : item.data?.data });
      }
    }
  }
  return { texts, images };
}
