import { TurnScope, type ToolCallContext } from '@openwork/tool-contract';
import { describe, expect, it } from 'vitest';
import { allowAll, FinalizedToolset, Registry } from '../src/index.ts';
import { echoTool, runTool, session, writeTool } from './fixtures.ts';

function registry(): Registry {
  return new Registry().register(echoTool).register(writeTool).register(runTool);
}

function callContext(): ToolCallContext {
  return new TurnScope().startCall({ callId: 'c1' }).context;
}

describe('FinalizedToolset (docs/design.md §6, §11 contract and layering)', () => {
  it('definitions and dispatch come from the same FinalizedToolset: every advertised tool is callable and nothing else is', async () => {
    const toolset = registry().finalize(session, { names: ['echo', 'store'] }, { authorize: allowAll });
    expect(toolset.definitions.map((definition) => definition.name)).toEqual(['echo', 'store']);
    for (const definition of toolset.definitions) {
      const input = definition.name === 'echo' ? { text: 'hi' } : { path: 'a' };
      const result = await toolset.call(definition.name, input, callContext());
      expect(result.status).toBe('ok');
      expect(result.toolId).toBe(definition.id);
    }
    const hidden = await toolset.call('run', { command: 'ls' }, callContext());
    expect(hidden.status).toBe('error');
    expect(hidden.status === 'error' && hidden.error.kind).toBe('unknown_tool');
  });

  it('after finalize, tools cannot be added, removed or replaced: the toolset and its definitions are frozen and offer no mutation', () => {
    const toolset = registry().finalize(session);
    expect(Object.isFrozen(toolset)).toBe(true);
    expect(Object.isFrozen(toolset.definitions)).toBe(true);
    expect(Object.isFrozen(toolset.definitions[0])).toBe(true);
    expect(() => (toolset.definitions as unknown as unknown[]).push({})).toThrow(TypeError);
    expect(() => Object.assign(toolset, { call: () => undefined })).toThrow(TypeError);
    const methods = Object.getOwnPropertyNames(FinalizedToolset.prototype);
    expect(methods.filter((name) => /add|remove|delete|replace|register|set/i.test(name))).toEqual([]);
  });

  it('a registry change after finalize does not reach the finalized toolset', async () => {
    const source = new Registry().register(echoTool);
    const toolset = source.finalize(session);
    source.register(writeTool);
    expect(toolset.names).toEqual(['echo']);
    const result = await toolset.call('store', { path: 'a' }, callContext());
    expect(result.status === 'error' && result.error.kind).toBe('unknown_tool');
  });

  it('a tool hidden by the permission filter is neither advertised nor executable: a read-only selection neither lists nor runs write or execute tools', async () => {
    const toolset = registry().finalize(session, { risks: ['read'] });
    expect(toolset.names).toEqual(['echo']);
    expect(toolset.anthropicDefinitions().map((definition) => definition.name)).toEqual(['echo']);
    for (const [name, input] of [['store', { path: 'a' }], ['run', { command: 'ls' }]] as const) {
      const result = await toolset.call(name, input, callContext());
      expect(result.status === 'error' && result.error.kind).toBe('unknown_tool');
    }
  });

  it('with unchanged input, the order of tool definitions is deterministic: the same registrations give the same definitions, in order', () => {
    const first = JSON.stringify(registry().finalize(session).genericDefinitions());
    const second = JSON.stringify(registry().finalize(session).genericDefinitions());
    expect(second).toBe(first);
    expect(registry().finalize(session).names).toEqual(['echo', 'store', 'run']);
  });

  it('refuses duplicate names and ids at registration, naming both tools and why', () => {
    expect(() => new Registry().register(echoTool).register(echoTool)).toThrow(
      'Registry.register: cannot register tool "echo" (test/echo): tool "echo" (test/echo) is already registered with that name; a model calls a tool by its name, so names are unique in a registry; register one of them, or give one another name',
    );
    expect(() => new Registry().register(echoTool).register({ ...echoTool, name: 'echo2' })).toThrow(/^Registry\.register: cannot register tool "echo2" \(test\/echo\): tool "echo" \(test\/echo\) is already registered with that id; /);
    expect(() => registry().select({ names: ['echo', 'nope'] })).toThrow('Registry.select: names names tool "nope", which is not registered; the registered tools are echo, store, run');
    expect(() => registry().select({ exclude: ['gone'] })).toThrow(/^Registry\.select: exclude names tool "gone", which is not registered; /);
  });

  it('refuses a malformed tool at registration, naming it and the field, before any call', () => {
    const refused = (tool: unknown) => {
      try {
        new Registry().register(tool as typeof echoTool);
      } catch (error) {
        return (error as Error).message;
      }
      return 'registered';
    };
    expect(refused(undefined)).toBe('Registry.register: cannot register undefined, not a tool: register takes a tool made with defineTool (from @openwork/tool-contract) or an adapted one');
    expect(refused({ ...echoTool, execute: undefined })).toBe('Registry.register: cannot register tool "echo" (test/echo): its execute is missing, not a function; make the tool with defineTool');
    expect(refused({ ...echoTool, name: 'has space' })).toMatch(/^Registry\.register: cannot register tool "has space" \(test\/echo\): its name is "has space"; a name is a letter, /);
    expect(refused({ ...echoTool, id: 'Echo' })).toMatch(/: its id is "Echo"; an id looks like "group\/name", in lower case$/);
    expect(refused({ ...echoTool, description: ' ' })).toMatch(/: its description is " "; the model chooses tools by their descriptions$/);
    expect(refused({ ...echoTool, risk: 'danger' })).toMatch(/: its risk is "danger", not read, write or execute; /);
    expect(refused({ ...echoTool, input: { type: 'string' } })).toMatch(/: its input is an object, not an object schema \(Type\.Object from typebox\)$/);
    expect(refused({ name: 'x' })).toMatch(/^Registry\.register: cannot register tool "x": its id is missing; /);
    expect(refused(echoTool)).toBe('registered');
  });

  it('exports the model formats from the same definitions', () => {
    const toolset = registry().finalize(session, { names: ['echo'] });
    const [definition] = toolset.definitions;
    expect(toolset.anthropicDefinitions()).toEqual([{ name: 'echo', description: 'Returns its text.', input_schema: definition?.inputSchema }]);
    expect(toolset.openAiDefinitions()).toEqual([
      { type: 'function', function: { name: 'echo', description: 'Returns its text.', parameters: definition?.inputSchema } },
    ]);
  });
});

describe('the permission decision runs before the tool', () => {
  it('a deny or an unapproved ask returns denied and runs nothing', async () => {
    let ran = false;
    const toolset = new Registry()
      .register({ ...writeTool, execute: () => ((ran = true), Promise.resolve({ data: {}, output: '' })) })
      .finalize(session);
    for (const decision of [
      { verdict: 'deny', reason: 'policy says no', rule: 'deny' },
      { verdict: 'ask', reason: 'writes need approval', rule: 'ask', approved: false },
    ] as const) {
      const result = await toolset.call('store', { path: 'a' }, callContext(), { authorize: () => Promise.resolve(decision) });
      expect(result.status).toBe('denied');
      expect(result.status === 'denied' && result.error.kind).toBe('denied');
      expect(result.decision).toEqual(decision);
    }
    expect(ran).toBe(false);
  });

  it('the policy sees the declared effect, and an approved ask runs with its decision attached', async () => {
    const seen: unknown[] = [];
    const toolset = registry().finalize(session);
    const result = await toolset.call('store', { path: 'src/a.ts' }, callContext(), {
      authorize: (request) => {
        seen.push(request.effect);
        return Promise.resolve({ verdict: 'ask', reason: 'writes ask', rule: 'ask', approved: true });
      },
    });
    expect(seen).toEqual([{ kind: 'write', paths: ['src/a.ts'] }]);
    expect(result.status).toBe('ok');
    expect(result.decision?.approved).toBe(true);
  });

  it('invalid input is rejected before the policy is asked', async () => {
    let asked = false;
    const toolset = registry().finalize(session);
    const result = await toolset.call('store', { path: 3 }, callContext(), {
      authorize: () => ((asked = true), Promise.resolve({ verdict: 'allow', reason: '', rule: '' })),
    });
    expect(result.status === 'error' && result.error.kind).toBe('invalid_input');
    expect(asked).toBe(false);
  });
});
