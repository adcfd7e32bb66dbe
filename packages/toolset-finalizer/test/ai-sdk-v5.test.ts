// The adapter under ai 5 (LanguageModelV2: string finish reasons, flat usage).
import { createRequire } from 'node:module';
import * as ai from 'ai-v5';
import { MockLanguageModelV2 } from 'ai-v5/test';
import { vi } from 'vitest';
import { describeAiSdkMajor, toolMessageParts } from './ai-sdk-majors.ts';

vi.mock('ai', () => import('ai-v5'));

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };

describeAiSdkMajor({
  major: 5,
  sdk: ai,
  version: (createRequire(import.meta.url)('ai-v5/package.json') as { version: string }).version,
  tsconfig: new URL('./ai-majors/tsconfig.ai-v5.json', import.meta.url),
  run: async ({ toolName, input, tools, abortSignal }) => {
    const model = new MockLanguageModelV2({
      doGenerate: [
        { content: [{ type: 'tool-call', toolCallId: 'call-1', toolName, input: JSON.stringify(input) }], finishReason: 'tool-calls', usage, warnings: [] },
        { content: [{ type: 'text', text: 'done' }], finishReason: 'stop', usage, warnings: [] },
      ],
    });
    // This file compiles against the newest major, so its tool types are not this major's; tsconfig above checks those.
    const result = await ai.generateText({ model, tools: tools as ai.ToolSet, stopWhen: ai.stepCountIs(3), prompt: 'go', ...(abortSignal ? { abortSignal } : {}) });
    return { text: result.text, firstStep: result.steps[0]?.content ?? [], sentToModel: toolMessageParts(model.doGenerateCalls[1]?.prompt),
      responseMessages: result.steps[0]?.response.messages ?? [],
    };
  },
});
