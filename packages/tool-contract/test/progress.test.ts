import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { adaptTool, defineTool, safeProgress, TurnScope, type ProgressSender, type ToolProgress } from '../src/index.ts';

const chatty = defineTool({
  id: 'test/chatty',
  name: 'chatty',
  description: 'Reports progress, then returns.',
  risk: 'read',
  input: Type.Object({}),
  effect: () => ({ kind: 'read', paths: [] }),
  execute: (_session, call) => {
    const progress = safeProgress(call.progress);
    progress({ kind: 'stdout', chunk: 'one' });
    progress({ kind: 'stderr', chunk: 'two' });
    progress({ kind: 'message', message: 'three' });
    return Promise.resolve({ data: { done: true }, output: 'done' });
  },
});

async function runWith(progress: ProgressSender) {
  const prepared = adaptTool(chatty).prepare({ workingDirectory: '/w', environment: {} }, {}, 'c');
  if (!('run' in prepared)) throw new Error('unexpected invalid input');
  return prepared.run(new TurnScope().startCall({ callId: 'c', progress }).context);
}

/** A tool that calls the sink it was handed directly, and awaits it, with no wrapper of its own. */
const careless = defineTool({
  id: 'test/careless',
  name: 'careless',
  description: 'Reports progress through the raw sink.',
  risk: 'read',
  input: Type.Object({}),
  effect: () => ({ kind: 'read', paths: [] }),
  execute: async (_session, call) => {
    void call.progress?.({ kind: 'stdout', chunk: 'one' });
    await call.progress?.({ kind: 'message', message: 'two' });
    return { data: { done: true }, output: 'done' };
  },
});

describe('progress (docs/design.md §10)', () => {
  it('the adapter hands a tool a sink that cannot throw: a tool calling the raw sink keeps its result', async () => {
    const run = async (progress: ProgressSender) => {
      const prepared = adaptTool(careless).prepare({ workingDirectory: '/w', environment: {} }, {}, 'c');
      if (!('run' in prepared)) throw new Error('unexpected invalid input');
      return prepared.run(new TurnScope().startCall({ callId: 'c', progress }).context);
    };
    const reference = await run(() => undefined);
    expect(reference.status).toBe('ok');
    expect(
      await run(() => {
        throw new Error('sink gone');
      }),
    ).toEqual(reference);
    expect(await run(() => Promise.reject(new Error('sink gone')))).toEqual(reference);
  });

  it('a failure to send progress does not change the tool result: a throwing or rejecting sink leaves the result unchanged', async () => {
    const events: ToolProgress[] = [];
    const reference = await runWith((event) => void events.push(event));
    expect(events.map((event) => event.kind)).toEqual(['stdout', 'stderr', 'message']);
    const throwing = await runWith(() => {
      throw new Error('sink gone');
    });
    const rejecting = await runWith(() => Promise.reject(new Error('sink gone')));
    expect(throwing).toEqual(reference);
    expect(rejecting).toEqual(reference);
  });

  it('a sink that failed once gets no more events', () => {
    let calls = 0;
    const progress = safeProgress(() => {
      calls += 1;
      throw new Error('no');
    });
    progress({ kind: 'message', message: 'a' });
    progress({ kind: 'message', message: 'b' });
    expect(calls).toBe(1);
  });
});
