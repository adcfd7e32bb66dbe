import { TurnScope, type PermissionDecision, type ToolCallContext } from '@openwork/tool-contract';
import { describe, expect, it } from 'vitest';
import { allowAll, readsOnly, Registry, type Authorize } from '../src/index.ts';
import { echoTool, runTool, session, writeTool } from './fixtures.ts';

function callContext(): ToolCallContext {
  return new TurnScope().startCall({ callId: 'c1' }).context;
}

/** A store and a run tool that record whether they ran. */
function recording(): { registry: Registry; ran: string[] } {
  const ran: string[] = [];
  const registry = new Registry()
    .register(echoTool)
    .register({ ...writeTool, execute: (_session, _call, input) => (ran.push(`store ${input.path}`), Promise.resolve({ data: {}, output: 'stored' })) })
    .register({ ...runTool, execute: (_session, _call, input) => (ran.push(`run ${input.command}`), Promise.resolve({ data: {}, output: 'ran' })) });
  return { registry, ran };
}

/** A definition to hand a policy directly. */
const registryDefinition = () => ({ definition: new Registry().register(echoTool).select({ names: ['echo'] })[0]!.definition });

describe('a toolset without a policy is safe by default', () => {
  it('runs reads; a write or a command is denied, nothing runs, and the reason says how to give a policy', async () => {
    const { registry, ran } = recording();
    const toolset = registry.finalize(session);
    const read = await toolset.call('echo', { text: 'hi' }, callContext());
    expect([read.status, read.decision]).toEqual(['ok', { verdict: 'allow', reason: 'reading is allowed', rule: 'read' }]);
    const store = await toolset.call('store', { path: 'src/a.ts' }, callContext());
    expect(store.status).toBe('denied');
    expect(store.decision).toMatchObject({ verdict: 'ask', approved: false, rule: 'ask' });
    expect(store.status === 'denied' && store.error.message).toBe(
      'store was not run: store writes src/a.ts; this toolset has no permission policy to ask with; give it one with finalize(session, selection, { authorize }) or call(…, { authorize }) (authorizer from @openwork/permission-policy), or allowAll to run every call',
    );
    const run = await toolset.call('run', { command: 'rm -rf src' }, callContext());
    expect(run.status === 'denied' && run.error.message).toMatch(/^run was not run: run runs "rm -rf src"; this toolset has no permission policy/);
    expect(ran).toEqual([]);
  });

  it('runs the companions of bash, which act only on a command already started, and says so', async () => {
    const { definition } = registryDefinition();
    const request = { definition, effect: { kind: 'background', backgroundId: 'bg-1' } as const, input: { backgroundId: 'bg-1' }, callId: 'c1', signal: new AbortController().signal };
    expect(await readsOnly(request)).toEqual({ verdict: 'allow', reason: 'echo acts only on bg-1, a command this session already started; it was decided when it started', rule: 'background' });
    expect(await allowAll(request)).toMatchObject({ verdict: 'allow', rule: 'allowAll' });
  });

  it('the policy given at finalize decides each call; a call’s own authorize overrides it', async () => {
    const { registry, ran } = recording();
    const decisions: string[] = [];
    const toolsetPolicy: Authorize = (request) => (decisions.push(`toolset ${request.definition.name}`), Promise.resolve({ verdict: 'allow', reason: 'fine', rule: 'test' }));
    const toolset = registry.finalize(session, {}, { authorize: toolsetPolicy });
    expect((await toolset.call('store', { path: 'a' }, callContext())).status).toBe('ok');
    const refuse: Authorize = () => Promise.resolve({ verdict: 'deny', reason: 'not this one', rule: 'deny' });
    expect((await toolset.call('store', { path: 'b' }, callContext(), { authorize: refuse })).status).toBe('denied');
    expect(decisions).toEqual(['toolset store']);
    expect(ran).toEqual(['store a']);
  });

  it('allowAll is written on purpose: it runs every call, each ask approved in advance', async () => {
    const { registry, ran } = recording();
    const toolset = registry.finalize(session, {}, { authorize: allowAll });
    const results = await Promise.all([
      toolset.call('echo', { text: 'hi' }, callContext()),
      toolset.call('store', { path: 'a' }, callContext()),
      toolset.call('run', { command: 'make' }, callContext()),
    ]);
    expect(results.map((result) => result.status)).toEqual(['ok', 'ok', 'ok']);
    expect(results.map((result) => result.decision)).toEqual<PermissionDecision[]>([
      { verdict: 'allow', reason: 'allowAll allows every call', rule: 'allowAll' },
      { verdict: 'ask', reason: 'store writes a; allowAll approves every call', rule: 'allowAll', approved: true },
      { verdict: 'ask', reason: 'run runs "make"; allowAll approves every call', rule: 'allowAll', approved: true },
    ]);
    expect(ran.sort()).toEqual(['run make', 'store a']);
  });

  it('readsOnly is the default, exported so that a caller can name it', async () => {
    const signal = new AbortController().signal;
    const [definition] = new Registry().register(runTool).finalize(session).definitions;
    if (definition === undefined) throw new Error('no definition');
    const decision = await readsOnly({ definition, effect: { kind: 'execute', command: 'x'.repeat(300), cwd: '/w' }, input: {}, callId: 'c', signal });
    expect(decision.reason).toMatch(/^run runs "x{200}"…; /);
  });
});
