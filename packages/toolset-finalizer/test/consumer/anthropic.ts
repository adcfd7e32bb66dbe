// A consumer of the Anthropic SDK, typechecked by the workspace typecheck (options checked by test/consumer.test.ts)
// and run by test/provider-sdks.test.ts:
// the definitions and the loop take the SDK's own types, without a cast.
import type Anthropic from '@anthropic-ai/sdk';
// eslint-disable-next-line @nx/enforce-module-boundaries -- a consumer imports the package by its name, as a user's project does
import { runAnthropicToolUses, type FinalizedToolset } from '@openwork/toolset-finalizer';

export async function anthropicTurn(client: Anthropic, toolset: FinalizedToolset, messages: Anthropic.MessageParam[]): Promise<Anthropic.Message> {
  const tools: Anthropic.Tool[] = toolset.anthropicDefinitions();
  const message = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 1024, tools, messages });
  messages.push({ role: 'assistant', content: message.content });
  const blocks: Anthropic.ContentBlock[] = message.content;
  const results: Anthropic.ToolResultBlockParam[] = await runAnthropicToolUses(toolset, blocks);
  messages.push({ role: 'user', content: results });
  return message;
}

export async function anthropicBetaTurn(client: Anthropic, toolset: FinalizedToolset): Promise<Anthropic.Beta.BetaToolResultBlockParam[]> {
  const message = await client.beta.messages.create({
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    tools: toolset.anthropicDefinitions(),
    messages: [{ role: 'user', content: 'Read README.md' }],
  });
  return runAnthropicToolUses(toolset, message.content);
}

export async function notBlocks(toolset: FinalizedToolset): Promise<void> {
  // @ts-expect-error a content list is blocks, each with a type
  await runAnthropicToolUses(toolset, [1, 2]);
}
