import { TurnScope, type ToolResult } from '@openwork/tool-contract';
import { describe, expect, it } from 'vitest';
import { runGeminiFunctionCalls } from '../src/index.ts';
import { loopToolset } from './loop-tools.ts';

describe('runGeminiFunctionCalls', () => {
  it('answers each functionCall with a functionResponse part, in order, echoing the id when the call had one', async () => {
    const calls = [
      { name: 'read', args: { path: 'README.md' }, id: 'g1' },
      { name: 'list', args: {} },
      { name: 'read', args: { path: 'nope' }, id: 'g3' },
    ];
    const expected = [
      { functionResponse: { id: 'g1', name: 'read', response: { output: '# greeter\n' } } },
      { functionResponse: { name: 'list', response: { output: 'README.md\nsrc/greet.ts' } } },
      { functionResponse: { id: 'g3', name: 'read', response: { error: 'Error [not_found]: there is no file at nope' } } },
    ];
    const turn = new TurnScope();
    expect(await runGeminiFunctionCalls(loopToolset(), calls, { turn })).toEqual(expected);
    expect(await runGeminiFunctionCalls(loopToolset(), calls, { parallel: true })).toEqual(expected);
    expect(turn.activeCalls).toBe(0);
  });

  it('a call without an id runs under one of its own; the policy and onResult see the model’s id when there is one', async () => {
    const ids: string[] = [];
    const seen: ToolResult[] = [];
    const parts = await runGeminiFunctionCalls(
      loopToolset(),
      [
        { name: 'write', args: { path: 'a.txt', content: 'x' }, id: 'w1' },
        { name: 'write', args: { path: 'b.txt', content: 'y' } },
        { name: 'write', args: { path: 'c.txt', content: 'z' } },
      ],
      { authorize: (request) => (ids.push(request.callId), Promise.resolve({ verdict: 'allow', reason: '', rule: '' })), onResult: (result) => seen.push(result) },
    );
    expect(parts.map((part) => part.functionResponse.response)).toEqual([{ output: 'wrote a.txt' }, { output: 'wrote b.txt' }, { output: 'wrote c.txt' }]);
    expect(ids[0]).toBe('w1');
    expect(new Set(ids).size).toBe(3);
    expect(seen.map((result) => result.callId)).toEqual(ids);
    // The file change stays with the product, never in the response.
    expect(seen[0]?.artifacts).toHaveLength(1);
    expect(JSON.stringify(parts)).not.toContain('secret-sha');
  });

  it('a denied call, an unknown name, a call with no name and one with no args are each answered as an error', async () => {
    const parts = await runGeminiFunctionCalls(
      loopToolset(),
      [{ name: 'write', args: { path: 'a.txt', content: 'x' } }, { name: 'patch', args: {} }, { args: {} }, { name: 'read' }],
      { authorize: () => Promise.resolve({ verdict: 'deny', reason: 'no writes here', rule: 'deny' }) },
    );
    expect(parts).toEqual([
      { functionResponse: { name: 'write', response: { error: 'Error [denied]: write was not run: no writes here' } } },
      { functionResponse: { name: 'patch', response: { error: expect.stringMatching(/^Error \[unknown_tool\]: there is no tool named "patch"/) as unknown } } },
      { functionResponse: { name: '', response: { error: expect.stringMatching(/^Error \[unknown_tool\]/) as unknown } } },
      { functionResponse: { name: 'read', response: { error: expect.stringMatching(/^Error \[invalid_input\]: invalid input for read/) as unknown } } },
    ]);
    expect(await runGeminiFunctionCalls(loopToolset(), undefined)).toEqual([]);
  });

  it('a cancelled turn ends the running call with a cancelled response', async () => {
    const turn = new TurnScope();
    const pending = runGeminiFunctionCalls(loopToolset(), [{ name: 'wait', args: {}, id: 'x1' }], { turn });
    setTimeout(() => turn.cancel(), 10);
    const [part] = await pending;
    expect(part?.functionResponse.response).toEqual({ error: expect.stringMatching(/^Error \[cancelled\]/) as unknown });
  });
});
