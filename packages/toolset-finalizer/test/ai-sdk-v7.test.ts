// The adapter under ai 7 (LanguageModelV4), the devDependency the rest of the tests use.
import { createRequire } from 'node:module';
import * as ai from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describeAiSdkMajor, toolMessageParts } from './ai-sdk-majors.ts';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

describeAiSdkMajor({
  major: 7,
  sdk: ai,
  version: (createRequire(import.meta.url)('ai/package.json') as { version: string }).version,
  run: async ({ toolName, input, tools, abortSignal }) => {
    const model = new MockLanguageModelV4({
      doGenerate: [
        { content: [{ type: 'tool-call', toolCallId: 'call-1', toolName, input: JSON.stringify(input) }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] },
        { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
      ],
    });
    const result = await ai.generateText({ model, tools, stopWhen: ai.stepCountIs(3), prompt: 'go', ...(abortSignal ? { abortSignal } : {}) });
    return { text: result.text, firstStep: result.steps[0]?.content ?? [], sentToModel: toolMessageParts(model.doGenerateCalls[1]?.prompt),
      responseMessages: result.steps[0]?.response.messages ?? [],
    };
  },
});
