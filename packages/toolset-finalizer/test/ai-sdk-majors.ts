// One suite for the `./ai-sdk` adapter, run once per major of `ai` that the
// peer range admits (5, 6, 7). Each test file hands the adapter its major
// under the name `ai` (vi.mock) and drives generateText with that major's
// own mock model, whose shape differs from one major to the next.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { TurnScope, type ToolResult } from '@openwork/tool-contract';
import { describe, expect, it } from 'vitest';
import { aiSdkTools, ToolResultError } from '../src/adapters/ai-sdk.ts';
import { PICTURE_TEXT, PIXEL, pictureToolset } from './image-tools.ts';
import { loopToolset } from './loop-tools.ts';

/** The image part of a tool result each major takes without a deprecation warning. */
const imageParts = {
  5: { type: 'media', data: PIXEL, mediaType: 'image/png' },
  6: { type: 'image-data', data: PIXEL, mediaType: 'image/png' },
  7: { type: 'file', data: { type: 'data', data: PIXEL }, mediaType: 'image/png' },
};

/** What one generateText run with the mock model gave back. */
export interface MockRun {
  readonly text: string;
  /** The first step's content parts: the tool call and its result or error. */
  readonly firstStep: readonly { readonly type: string; readonly error?: unknown }[];
  /** The tool message's parts in the model's second request: what the model was told. */
  readonly sentToModel: unknown;
  /** The messages of the first step (the call and its result), as the SDK keeps them for the next request. */
  readonly responseMessages: readonly unknown[];
}

export interface AiSdkMajor {
  readonly major: 5 | 6 | 7;
  /** This major's module; the adapter must have been given the same one as `ai`. */
  readonly sdk: { readonly generateText: unknown; readonly modelMessageSchema: { safeParse(value: unknown): { readonly success: boolean } } };
  /** The version installed, from its package.json. */
  readonly version: string;
  /**
   * generateText with this major's mock model, which calls `toolName` with
   * `input` once and answers "done" when it gets the result.
   */
  readonly run: (request: { readonly toolName: string; readonly input: unknown; readonly tools: AiSdkTools; readonly abortSignal?: AbortSignal }) => Promise<MockRun>;
  /**
   * A tsconfig that maps `ai` to this major, for tsc over the adapter's
   * source and test/consumer/ai-sdk.ts; none for the newest, which
   * test/consumer.test.ts already compiles against.
   */
  readonly tsconfig?: URL;
}

type AiSdkTools = ReturnType<typeof aiSdkTools>;

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

export function describeAiSdkMajor(subject: AiSdkMajor): void {
  describe(`aiSdkTools under ai ${subject.major}`, () => {
    it(`runs against ai ${subject.major}, which the adapter imports as 'ai'`, async () => {
      expect(subject.version.split('.')[0]).toBe(String(subject.major));
      const ai = (await import('ai')) as { generateText: unknown };
      expect(ai.generateText).toBe(subject.sdk.generateText);
    });

    if (subject.tsconfig !== undefined) {
      const tsconfig = fileURLToPath(subject.tsconfig);
      it(`the adapter's source and an AI SDK consumer typecheck against ai ${subject.major}`, async () => {
        // A failure prints the diagnostics, which is the useful part of the message.
        const diagnostics = await promisify(execFile)(process.execPath, [tsc, '-p', tsconfig, '--pretty', 'false']).then(
          () => '',
          (error: Error & { stdout?: string }) => error.stdout || error.message,
        );
        expect(diagnostics).toBe('');
      }, 180_000);
    }

    it('a call runs and the model is sent its text as the tool result', async () => {
      const run = await subject.run({ toolName: 'read', input: { path: 'README.md' }, tools: aiSdkTools(loopToolset()) });
      expect(run.firstStep.filter((part) => part.type === 'tool-result')).toMatchObject([{ toolCallId: 'call-1', toolName: 'read', output: '# greeter\n' }]);
      expect(run.sentToModel).toEqual([{ type: 'text', value: '# greeter\n' }]);
      expect(run.text).toBe('done');
    });

    it('an image result reaches the model as a text part and a media part of the tool result, in a message the SDK accepts', async () => {
      const run = await subject.run({ toolName: 'picture', input: {}, tools: aiSdkTools(pictureToolset()) });
      const images = [{ type: 'image', mediaType: 'image/png', data: PIXEL }];
      expect(run.firstStep.filter((part) => part.type === 'tool-result')).toMatchObject([{ toolName: 'picture', output: { text: PICTURE_TEXT, images } }]);
      const output = { type: 'content', value: [{ type: 'text', text: PICTURE_TEXT }, imageParts[subject.major]] };
      const toolMessage = run.responseMessages.find((message) => (message as { role: string }).role === 'tool');
      expect(toolMessage).toMatchObject({ content: [{ type: 'tool-result', toolName: 'picture', output }] });
      for (const message of run.responseMessages) expect(subject.sdk.modelMessageSchema.safeParse(message).success).toBe(true);
      expect(run.sentToModel).toEqual([output]);
      expect(run.text).toBe('done');
    });

    it("an error result is the SDK's tool-error part carrying a ToolResultError, and the model is sent its text as an error", async () => {
      const run = await subject.run({ toolName: 'read', input: { path: 'nope' }, tools: aiSdkTools(loopToolset()) });
      const errors = run.firstStep.filter((part) => part.type === 'tool-error');
      expect(errors).toMatchObject([{ toolCallId: 'call-1', toolName: 'read', input: { path: 'nope' } }]);
      expect(errors[0]?.error).toBeInstanceOf(ToolResultError);
      expect((errors[0]?.error as ToolResultError).result).toMatchObject({ status: 'error', callId: 'call-1', error: { kind: 'not_found' } });
      expect(run.sentToModel).toEqual([{ type: 'error-text', value: 'Error [not_found]: there is no file at nope' }]);
      expect(run.text).toBe('done');
    });

    it('a denied call reaches the model the same way', async () => {
      const tools = aiSdkTools(loopToolset(), { authorize: () => Promise.resolve({ verdict: 'deny', reason: 'no writes here', rule: 'deny' }) });
      const run = await subject.run({ toolName: 'write', input: { path: 'a.txt', content: 'x' }, tools });
      const errors = run.firstStep.filter((part) => part.type === 'tool-error');
      expect((errors[0]?.error as ToolResultError).result).toMatchObject({ status: 'denied', error: { kind: 'denied' } });
      expect(run.sentToModel).toEqual([{ type: 'error-text', value: 'Error [denied]: write was not run: no writes here' }]);
    });

    it("generateText's abort signal cancels the running call, which ends in a cancelled result", async () => {
      const controller = new AbortController();
      const turn = new TurnScope();
      const results: ToolResult[] = [];
      const tools = aiSdkTools(loopToolset(), { turn, onResult: (result) => results.push(result) });
      const pending = subject.run({ toolName: 'wait', input: {}, tools, abortSignal: controller.signal });
      setTimeout(() => controller.abort(), 20);
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
      expect(results).toMatchObject([{ status: 'error', callId: 'call-1', error: { kind: 'cancelled' } }]);
      expect(turn.activeCalls).toBe(0);
    });
  });
}

/** The parts of the tool message in a prompt the mock model received. */
export function toolMessageParts(prompt: readonly { readonly role: string; readonly content: unknown }[] | undefined): unknown {
  const message = prompt?.find((entry) => entry.role === 'tool');
  return (message?.content as { type: string; output?: unknown }[] | undefined)?.map((part) => (part.type === 'tool-result' ? part.output : part));
}
