import Type, { type Static } from 'typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  adaptTool,
  defineTool,
  toModelResult,
  ToolError,
  TurnScope,
  type FileChangeArtifact,
  type ToolCallContext,
  type ToolSessionContext,
} from '../src/index.ts';

const session: ToolSessionContext = { workingDirectory: '/w', environment: {} };
const Input = Type.Object({ path: Type.String(), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 2000 })) });

function call(callId = 'c1'): ToolCallContext {
  return new TurnScope().startCall({ callId }).context;
}

function tool(execute: (input: Static<typeof Input>) => Promise<{ data: unknown; output: string; artifacts?: FileChangeArtifact[] }>) {
  return defineTool({
    id: 'test/read',
    name: 'read',
    description: 'Reads.',
    risk: 'read',
    input: Input,
    effect: (input) => ({ kind: 'read', paths: [input.path] }),
    execute: (_session, _call, input) => execute(input),
  });
}

async function run(dyn: ReturnType<typeof adaptTool>, input: unknown, context = call()) {
  const prepared = dyn.prepare(session, input, context.callId);
  return 'run' in prepared ? prepared.run(context) : prepared;
}

describe('the adapter (docs/design.md §2 object-safe dispatch)', () => {
  it('the input schema and the deserialized type come from the same type: the advertised schema is the validated one, and execute gets its Static type', async () => {
    const seen: unknown[] = [];
    const typed = tool((input) => {
      expectTypeOf(input).toEqualTypeOf<{ path: string; limit?: number }>();
      seen.push(input);
      return Promise.resolve({ data: null, output: 'ok' });
    });
    const dyn = adaptTool(typed);
    expect(dyn.definition.inputSchema).toEqual({ ...Input, additionalProperties: false });
    const good = await run(dyn, { path: 'a', limit: 5 });
    expect(good.status).toBe('ok');
    expect(seen).toEqual([{ path: 'a', limit: 5 }]);
    const bad = await run(dyn, { path: 'a', limit: 0 });
    expect(bad.status === 'error' && bad.error.kind).toBe('invalid_input');
    expect(bad.status === 'error' && bad.error.message).toMatch(/input\.limit must be >= 1/);
  });

  it('nothing changes after adapting: a mutated definition or tool schema changes neither what is advertised nor what is accepted', async () => {
    const Mutable = Type.Object({ path: Type.String({ description: 'the path', maxLength: 3 }) });
    const dyn = adaptTool(
      defineTool({
        id: 'test/mutable',
        name: 'mutable',
        description: 'Reads.',
        risk: 'read',
        input: Mutable,
        effect: () => ({ kind: 'read', paths: [] }),
        execute: () => Promise.resolve({ data: null, output: 'ok' }),
      }),
    );
    const property = (dyn.definition.inputSchema.properties as Record<string, Record<string, unknown>>).path ?? {};
    expect(() => {
      property.description = 'changed';
    }).toThrow(TypeError);
    expect(() => {
      property.maxLength = 100;
    }).toThrow(TypeError);
    // The tool's own schema object is not what was advertised or compiled.
    (Mutable.properties.path as unknown as Record<string, unknown>).maxLength = 100;
    expect(property).toMatchObject({ description: 'the path', maxLength: 3 });
    const tooLong = await run(dyn, { path: 'abcdef' });
    expect(tooLong.status === 'error' && tooLong.error.kind).toBe('invalid_input');
  });

  it('the advertised outputSchema is a deep frozen copy: neither a caller nor the tool changing its own schema changes it', () => {
    const Output = Type.Object({ count: Type.Integer({ description: 'how many', minimum: 0 }) });
    const dyn = adaptTool(
      defineTool({
        id: 'test/counted',
        name: 'counted',
        description: 'Counts.',
        risk: 'read',
        input: Type.Object({}),
        output: Output,
        effect: () => ({ kind: 'read', paths: [] }),
        execute: () => Promise.resolve({ data: { count: 1 }, output: 'ok' }),
      }),
    );
    const property = (dyn.definition.outputSchema?.properties as Record<string, Record<string, unknown>>).count ?? {};
    expect(() => {
      property.description = 'changed';
    }).toThrow(TypeError);
    (Output.properties.count as unknown as Record<string, unknown>).minimum = 5;
    expect(property).toMatchObject({ description: 'how many', minimum: 0 });
  });

  it('rejects unknown properties, missing ones, wrong types and non-objects as invalid_input', async () => {
    const dyn = adaptTool(tool(() => Promise.resolve({ data: null, output: '' })));
    for (const [input, pattern] of [
      [{ path: 'a', extra: 1 }, /unknown property "extra"/],
      [{}, /missing "path"/],
      [{ path: 7 }, /input\.path must be string/],
      [[], /input must be object/],
      ['path', /input must be object/],
      [null, /input must be object/],
    ] as const) {
      const result = await run(dyn, input);
      expect(result.status).toBe('error');
      expect(result.status === 'error' && result.error.kind).toBe('invalid_input');
      expect(result.status === 'error' && result.error.message).toMatch(pattern);
    }
  });

  it('turns a ToolError into its kind and any other throw into io, never a rejection', async () => {
    const known = await run(adaptTool(tool(() => Promise.reject(new ToolError('not_found', 'no such file: a')))), { path: 'a' });
    expect(known).toMatchObject({ status: 'error', error: { kind: 'not_found', message: 'no such file: a' }, output: 'Error [not_found]: no such file: a' });
    const unknown = await run(adaptTool(tool(() => Promise.reject(new RangeError('boom')))), { path: 'a' });
    expect(unknown).toMatchObject({ status: 'error', error: { kind: 'io' } });
    expect(unknown.status === 'error' && unknown.error.message).toMatch(/boom/);
    const syncThrow = await run(
      adaptTool(
        tool(() => {
          throw new Error('sync');
        }),
      ),
      { path: 'a' },
    );
    expect(syncThrow).toMatchObject({ status: 'error', error: { kind: 'io' } });
  });

  it('no artifact appears in the model context or its token count: fills the result of docs/contract.md §3 and keeps artifacts out of the model text', async () => {
    const artifact: FileChangeArtifact = {
      kind: 'file_change',
      changeId: 'ch1',
      path: 'a',
      absolutePath: '/w/a',
      change: 'modify',
      added: 1,
      removed: 1,
      hunks: [],
      beforeSha256: 'x'.repeat(64),
      afterSha256: 'y'.repeat(64),
      originalContent: 'SECRET ORIGINAL CONTENT '.repeat(1000),
      undone: false,
    };
    const result = await run(adaptTool(tool(() => Promise.resolve({ data: { n: 1 }, output: 'changed a', artifacts: [artifact] }))), { path: 'a' }, call('call-7'));
    expect(result).toEqual({ tool: 'read', toolId: 'test/read', callId: 'call-7', status: 'ok', output: 'changed a', data: { n: 1 }, artifacts: [artifact] });
    // docs/design.md §10: the model context and its token count never contain an artifact.
    const model = toModelResult(result);
    expect(model).toEqual({ content: 'changed a', isError: false });
    expect(JSON.stringify(model)).not.toContain('SECRET');
  });

  it('declares the effect before anything runs', () => {
    let ran = false;
    const dyn = adaptTool(tool(() => ((ran = true), Promise.resolve({ data: null, output: '' }))));
    const prepared = dyn.prepare(session, { path: 'src/x.ts' }, 'c');
    expect('run' in prepared && prepared.effect).toEqual({ kind: 'read', paths: ['src/x.ts'] });
    expect(ran).toBe(false);
  });

  it('a call whose signal is already aborted does not run, and says which way it ended', async () => {
    let ran = false;
    const dyn = adaptTool(tool(() => ((ran = true), Promise.resolve({ data: null, output: '' }))));
    const turn = new TurnScope();
    const active = turn.startCall({ callId: 'c' });
    turn.cancel();
    const cancelled = await run(dyn, { path: 'a' }, active.context);
    expect(cancelled.status === 'error' && cancelled.error.kind).toBe('cancelled');
    const expired = new TurnScope().startCall({ callId: 'd', deadline: Date.now() - 1 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const timedOut = await run(dyn, { path: 'a' }, expired.context);
    expect(timedOut.status === 'error' && timedOut.error.kind).toBe('timed_out');
    expect(ran).toBe(false);
  });

  it('a throw caused by the call aborting mid-way is reported as that abort', async () => {
    const turn = new TurnScope();
    const active = turn.startCall({ callId: 'c' });
    const dyn = adaptTool(
      tool(
        () =>
          new Promise((_resolve, reject) => {
            active.context.signal.addEventListener('abort', () => reject(new Error('aborted read')));
            turn.cancel();
          }),
      ),
    );
    const result = await run(dyn, { path: 'a' }, active.context);
    expect(result.status === 'error' && result.error.kind).toBe('cancelled');
  });
});

describe('defineTool', () => {
  it('refuses malformed ids, names and empty descriptions', () => {
    const base = { name: 'read', description: 'd', risk: 'read' as const, input: Input, effect: () => ({ kind: 'read' as const, paths: [] }), execute: () => Promise.resolve({ data: null, output: '' }) };
    expect(() => defineTool({ ...base, id: 'read' })).toThrow(/group\/name/);
    expect(() => defineTool({ ...base, id: 'fs/read', name: 'has space' })).toThrow(/tool name/);
    expect(() => defineTool({ ...base, id: 'fs/read', description: ' ' })).toThrow(/description/);
    expect(Object.isFrozen(defineTool({ ...base, id: 'fs/read' }))).toBe(true);
  });
});
