// A consumer of the openai SDK (the current major), typechecked by
// the workspace typecheck (its options checked by test/consumer.test.ts) and run by test/provider-sdks.test.ts: Chat
// Completions and Responses, strict or not.
import type OpenAI from 'openai';
// eslint-disable-next-line @nx/enforce-module-boundaries -- a consumer imports the package by its name, as a user's project does
import { runOpenAiResponsesCalls, runOpenAiToolCalls, type FinalizedToolset } from '@openwork/toolset-finalizer';

export async function chatTurn(client: OpenAI, toolset: FinalizedToolset, messages: OpenAI.ChatCompletionMessageParam[]): Promise<void> {
  const tools: OpenAI.ChatCompletionTool[] = toolset.openAiDefinitions({ strict: true });
  const completion = await client.chat.completions.create({ model: 'gpt-5', messages, tools });
  const message = completion.choices[0]?.message;
  if (message === undefined) return;
  messages.push(message);
  const toolCalls: OpenAI.ChatCompletionMessageToolCall[] | undefined = message.tool_calls;
  const answers: OpenAI.ChatCompletionMessageParam[] = await runOpenAiToolCalls(toolset, toolCalls);
  messages.push(...answers);
}

export async function parsedChatTurn(client: OpenAI, toolset: FinalizedToolset): Promise<OpenAI.ChatCompletionMessageParam[]> {
  const completion = await client.chat.completions.parse({
    model: 'gpt-5',
    messages: [{ role: 'user', content: 'Read README.md' }],
    tools: toolset.openAiDefinitions({ strict: true }),
  });
  return runOpenAiToolCalls(toolset, completion.choices[0]?.message.tool_calls);
}

export async function responsesTurn(client: OpenAI, toolset: FinalizedToolset, input: string): Promise<OpenAI.Responses.Response> {
  const tools: OpenAI.Responses.FunctionTool[] = toolset.openAiResponsesDefinitions();
  const response = await client.responses.create({ model: 'gpt-5', input, tools });
  const outputs: OpenAI.Responses.ResponseInputItem.FunctionCallOutput[] = await runOpenAiResponsesCalls(toolset, response.output);
  return client.responses.create({ model: 'gpt-5', previous_response_id: response.id, input: outputs, tools: toolset.openAiResponsesDefinitions({ strict: false }) });
}

export async function notToolCalls(toolset: FinalizedToolset): Promise<void> {
  // @ts-expect-error tool calls carry an id and a function or custom part
  await runOpenAiToolCalls(toolset, [{ type: 'function' }]);
}
