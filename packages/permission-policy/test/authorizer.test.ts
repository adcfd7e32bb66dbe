import type { ToolEffect } from '@openwork/tool-contract';
import { describe, expect, it } from 'vitest';
import { approveEveryAsk, askNobody, authorizer, NOT_APPROVED, type AskPerson, type AskRequest, type PolicyRequest } from '../src/index.ts';

const request = (effect: ToolEffect): PolicyRequest => ({ definition: { name: effect.kind === 'read' ? 'read' : 'write' }, effect, signal: new AbortController().signal });
const writing = request({ kind: 'write', paths: ['a.txt'] });
const NOTE = 'there is no terminal to ask; pass --yes to approve';

describe('authorizer: the ask flow', () => {
  it('does not ask when the policy allows', async () => {
    const asked: AskRequest[] = [];
    const authorize = authorizer({ mode: 'default', ask: (question) => (asked.push(question), Promise.resolve('approved')) });
    expect(await authorize(request({ kind: 'read', paths: ['a.txt'] }))).toEqual({ verdict: 'allow', reason: 'reading is allowed', rule: 'read' });
    expect(asked).toEqual([]);
  });

  it('the companions of bash run without asking, saying they act only on a command this session already started', async () => {
    const asked: AskRequest[] = [];
    const following: PolicyRequest = { definition: { name: 'bash_kill' }, effect: { kind: 'background', backgroundId: 'bg-3' }, signal: new AbortController().signal };
    for (const mode of ['default', 'acceptEdits', 'readOnly'] as const) {
      expect(await authorizer({ mode, ask: (question) => (asked.push(question), Promise.resolve('refused')) })(following)).toEqual({
        verdict: 'allow',
        reason: 'bash_kill acts only on bg-3, a command this session already started; it was decided when it started',
        rule: 'background',
      });
    }
    expect(asked).toEqual([]);
  });

  it('asks with one line naming the tool and the reason, and the call’s signal', async () => {
    const asked: AskRequest[] = [];
    const ask: AskPerson = (question) => (asked.push(question), Promise.resolve('approved'));
    expect(await authorizer({ mode: 'default', ask })(writing)).toEqual({ verdict: 'ask', reason: 'write writes a.txt', rule: 'ask', approved: true });
    expect(asked).toEqual([{ question: 'write: write writes a.txt. Allow?', tool: 'write', effect: writing.effect, decision: { verdict: 'ask', reason: 'write writes a.txt', rule: 'ask' }, signal: writing.signal }]);
  });

  it('after a person’s no the reason says "not approved", with no hint about flags', async () => {
    const decision = await authorizer({ mode: 'default', ask: () => Promise.resolve('refused'), unansweredNote: NOTE })(writing);
    expect(decision).toEqual({ verdict: 'ask', reason: `write writes a.txt; ${NOT_APPROVED}`, rule: 'ask', approved: false });
    expect(decision.reason).not.toContain('--yes');
  });

  it('when nobody could be asked the reason carries the note on what would approve it', async () => {
    expect(await authorizer({ mode: 'default', ask: askNobody, unansweredNote: NOTE })(writing)).toEqual({ verdict: 'ask', reason: `write writes a.txt; ${NOTE}`, rule: 'ask', approved: false });
    expect((await authorizer({ mode: 'default', ask: askNobody })(writing)).reason).toBe('write writes a.txt; there was nobody to ask');
  });

  it('approveEveryAsk approves, as --yes does; a deny is never put to anyone', async () => {
    expect(await authorizer({ mode: 'default', ask: approveEveryAsk })(writing)).toMatchObject({ approved: true });
    const denied = await authorizer({ mode: 'readOnly', ask: approveEveryAsk })(writing);
    expect(denied).toMatchObject({ verdict: 'deny', rule: 'readOnly' });
    expect(denied).not.toHaveProperty('approved');
  });
});
