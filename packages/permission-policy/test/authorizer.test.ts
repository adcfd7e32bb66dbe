import type { ToolEffect } from '@openwork/tool-contract';
import { describe, expect, it } from 'vitest';
import { approvalWays, approveEveryAsk, askNobody, authorizer, NOT_APPROVED, type ApprovalWays, type AskPerson, type AskRequest, type PolicyRequest } from '../src/index.ts';

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
    expect((await authorizer({ mode: 'default', ask: askNobody })(writing)).reason).toBe(
      "write writes a.txt; nobody could be asked; mode 'acceptEdits', or an ask that reaches a person (authorizer's ask) would let it run",
    );
  });

  it('a note made for the ask is told what would let it run: the exact allow rule, acceptEdits, a root', async () => {
    const seen: ApprovalWays[] = [];
    const note = (ways: ApprovalWays) => (seen.push(ways), 'see the ways');
    const ask = (reason: string, command = 'npm test') =>
      authorizer({ mode: 'default', ask: askNobody, unansweredNote: note, classifyCommand: () => Promise.resolve({ verdict: 'ask', reason, rule: 'ask' }) })({
        definition: { name: 'bash' },
        effect: { kind: 'execute', command, cwd: '/ws' },
        signal: new AbortController().signal,
      });
    expect((await ask('npm is not on the read-only list; an allow rule "bash:npm test" would let it run (in "npm test")')).reason).toMatch(/; see the ways$/);
    await ask('sed -i edits files in place; it runs on its own only in acceptEdits mode');
    await ask("it reads /etc/passwd, which is outside the readable roots (outside_root); a person's approval, or a readable root that holds it, would let it run");
    await ask('/tmp/x is not inside a writable root (outside_root)');
    await authorizer({ mode: 'default', ask: askNobody, unansweredNote: note })(writing);
    expect(seen).toEqual([
      { allowRules: ['bash:npm test'], acceptEdits: false },
      { allowRules: [], acceptEdits: true },
      { allowRules: [], acceptEdits: false, root: 'readable' },
      { allowRules: [], acceptEdits: false, root: 'writable' },
      { allowRules: [], acceptEdits: true },
    ]);
    // A protected write asks in every mode: acceptEdits would not run it.
    expect(approvalWays({ effect: writing.effect, decision: { verdict: 'ask', reason: 'write writes .git/config, inside .git, where a change alters what git runs', rule: 'ask' }, mode: 'default' })).toEqual({ allowRules: [], acceptEdits: false });
    // Already in acceptEdits, the mode is no way out.
    expect(approvalWays({ effect: writing.effect, decision: { verdict: 'ask', reason: 'write writes a.txt', rule: 'ask' }, mode: 'acceptEdits' }).acceptEdits).toBe(false);
  });

  it('approveEveryAsk approves, as --yes does; a deny is never put to anyone', async () => {
    expect(await authorizer({ mode: 'default', ask: approveEveryAsk })(writing)).toMatchObject({ approved: true });
    const denied = await authorizer({ mode: 'readOnly', ask: approveEveryAsk })(writing);
    expect(denied).toMatchObject({ verdict: 'deny', rule: 'readOnly' });
    expect(denied).not.toHaveProperty('approved');
  });
});
