// A consumer of the Vercel AI SDK, typechecked by the workspace typecheck (options checked by test/consumer.test.ts)
// and run by test/provider-sdks.test.ts.
// eslint-disable-next-line @nx/enforce-module-boundaries -- a consumer imports the package by its name, as a user's project does
import type { FinalizedToolset } from '@openwork/toolset-finalizer';
import { aiSdkTools, ToolResultError, type AiSdkToolOutput } from '@openwork/toolset-finalizer/ai-sdk';
import { generateText, stepCountIs, type LanguageModel, type ToolSet } from 'ai';

export async function aiSdkTurn(model: LanguageModel, toolset: FinalizedToolset): Promise<string[]> {
  const tools: ToolSet = aiSdkTools(toolset);
  const result = await generateText({ model, tools, stopWhen: stepCountIs(5), prompt: 'Read README.md' });
  const kinds: string[] = [];
  for (const part of result.steps.flatMap((step) => step.content)) {
    if (part.type === 'tool-error' && part.error instanceof ToolResultError) kinds.push(part.error.result.error.kind);
  }
  return kinds;
}

/** What a product shows of a tool's output: its text, and how many images went to the model beside it. */
export async function aiSdkOutputs(model: LanguageModel, toolset: FinalizedToolset): Promise<string[]> {
  const tools = aiSdkTools(toolset);
  const result = await generateText({ model, tools, stopWhen: stepCountIs(5), prompt: 'Look at a.png' });
  return result.steps.flatMap((step) => step.toolResults).map((part) => {
    if (part.dynamic === true) return 'not ours';
    const output: AiSdkToolOutput = part.output;
    return typeof output === 'string' ? output : `${output.text} [${output.images.length} image]`;
  });
}

export function notOrdered(toolset: FinalizedToolset): ToolSet {
  // @ts-expect-error the SDK decides the order of its calls
  return aiSdkTools(toolset, { parallel: true });
}
