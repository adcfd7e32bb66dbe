// An Anthropic Messages loop: the assistant's tool_use blocks in, the
// tool_result blocks of the next user message out (images as base64 image blocks).
import { runAnthropicToolUses } from '@openwork/toolset-finalizer';
import { READS } from './fixture.mjs';

export default async function anthropic({ toolset }) {
  const content = [{ type: 'text', text: 'Reading both.' }, ...READS.map((read) => ({ type: 'tool_use', id: read.id, name: 'read', input: read.input }))];
  const results = await runAnthropicToolUses(toolset, content);
  const userMessage = { role: 'user', content: results };
  const texts = [];
  const images = [];
  for (const block of userMessage.content) {
    if (block.type !== 'tool_result') throw new Error(`not a tool_result: ${block.type}`);
    const parts = typeof block.content === 'string' ? [{ type: 'text', text: block.content }] : block.content;
    for (const part of parts) {
      if (part.type === 'text') texts.push(part.text);
      else if (part.type === 'image' && part.source.type === 'base64') images.push({ mediaType: part.source.media_type, data: part.source.data });
    }
  }
  return { texts, images, toolUseIds: results.map((block) => block.tool_use_id) };
}
