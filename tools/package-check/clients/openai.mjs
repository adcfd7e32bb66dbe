// An OpenAI Chat Completions loop: the assistant's tool_calls in; out, one
// `tool` message per call, then a user message whose image_url parts carry the
// images as data URLs (Chat Completions tool messages hold text only).
import { runOpenAiToolCalls } from '@openwork/toolset-finalizer';
import { READS } from './fixture.mjs';

export default async function openai({ toolset }) {
  const toolCalls = READS.map((read) => ({ id: read.id, type: 'function', function: { name: 'read', arguments: JSON.stringify(read.input) } }));
  const messages = await runOpenAiToolCalls(toolset, toolCalls);
  const texts = [];
  const images = [];
  let lastTool = -1;
  let firstUser = messages.length;
  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      lastTool = index;
      texts.push(message.content);
    } else if (message.role === 'user') {
      firstUser = Math.min(firstUser, index);
      for (const part of message.content) {
        const url = part.type === 'image_url' ? /^data:([^;]+);base64,(.*)$/.exec(part.image_url.url) : null;
        if (url !== null) images.push({ mediaType: url[1], data: url[2] });
      }
    }
  });
  return { texts, images, toolCallIds: messages.filter((message) => message.role === 'tool').map((message) => message.tool_call_id), imagesAfterToolMessages: firstUser > lastTool };
}
