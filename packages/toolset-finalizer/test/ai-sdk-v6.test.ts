// The adapter under ai 6 (LanguageModelV3: finish reasons and usage as objects).
import { createRequire } from 'node:module';
import * as ai from 'ai-v6';
import { MockLanguageModelV3 } from 'ai-v6/test';
import { vi } from 'vitest';
import { describeAiSdkMajor, toolMessageParts } from './ai-sdk-majors.ts';

vi.mock('ai', () => import('ai-v6'));

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

describeAiSdkMajor({
  major: 6,
  sdk: ai,
  version: (createRequire(import.meta.url)('ai-v6/package.json') as { version: string }).version,
  tsconfig: new URL('./ai-majors/tsconfig.ai-v6.json', import.meta.url),
  run: async ({ toolName, input, tools, abortSignal }) => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        { content: [{ type: 'tool-call', toolCallId: 'call-1', toolName, input: JSON.stringify(input) }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] },
        { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
      ],
    });
    // This file compiles against the newest major, so its tool types are not this major's; tsconfig above checks those.
    const result = await ai.generateText({ model, tools: tools as ai.ToolSet, stopWhen: ai.stepCountIs(3), prompt: 'go', ...(abortSignal ? { abortSignal } : {}) });
    return { text: result.text, firstStep: result.steps[0]?.content ?? [], sentToModel: toolMessageParts(model.doGenerateCalls[1]?.prompt),
      responseMessages: result.steps[0]?.response.messages ?? [],
    };
  },
});
