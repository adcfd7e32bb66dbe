import { describe, expect, it } from 'vitest';
import { abortKind, CallAborted, deriveSignal, TurnScope } from '../src/index.ts';

describe('cancellation (docs/design.md §5)', () => {
  it('cancelling a turn cancels every active tool call at once: cancelling the turn aborts every active call at once', () => {
    const turn = new TurnScope();
    const calls = Array.from({ length: 5 }, (_, index) => turn.startCall({ callId: `c${index}`, timeoutMs: 60_000 }));
    const order: string[] = [];
    for (const active of calls) active.context.signal.addEventListener('abort', () => order.push(active.context.callId));
    turn.cancel();
    expect(order).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    for (const active of calls) expect(abortKind(active.context.signal)).toBe('cancelled');
    for (const active of calls) active.end();
    expect(turn.activeCalls).toBe(0);
  });

  it('timeout and user cancel take the same termination path: a deadline aborts the same signal, as timed_out', async () => {
    const turn = new TurnScope();
    const active = turn.startCall({ callId: 'c', timeoutMs: 10 });
    const reason = await new Promise<unknown>((resolve) => active.context.signal.addEventListener('abort', () => resolve(active.context.signal.reason)));
    expect(reason).toBeInstanceOf(CallAborted);
    expect(abortKind(active.context.signal)).toBe('timed_out');
    expect(turn.signal.aborted).toBe(false);
    active.end();
  });

  it('each call derives its own signal: ending or timing out one call leaves the others and the turn alone', () => {
    const turn = new TurnScope();
    const first = turn.startCall({ callId: 'a', deadline: Date.now() - 1 });
    const second = turn.startCall({ callId: 'b' });
    first.end();
    expect(second.context.signal.aborted).toBe(false);
    expect(turn.activeCalls).toBe(1);
    second.end();
  });

  it('the deadline is the earlier of deadline and timeoutMs', () => {
    const now = Date.now();
    const active = new TurnScope().startCall({ callId: 'a', deadline: now + 50_000, timeoutMs: 1_000 });
    expect(active.context.deadline).toBeGreaterThanOrEqual(now + 1_000);
    expect(active.context.deadline).toBeLessThan(now + 5_000);
    active.end();
  });

  it('release detaches from the parent so no listener outlives its call', () => {
    const parent = new AbortController();
    const derived = deriveSignal(parent.signal, Date.now() + 60_000);
    derived.release();
    parent.abort();
    expect(derived.signal.aborted).toBe(false);
  });

  it('a parent that timed out passes on timed_out; a foreign abort counts as a cancel', () => {
    const parent = new AbortController();
    parent.abort(new CallAborted('timed_out'));
    expect(abortKind(deriveSignal(parent.signal).signal)).toBe('timed_out');
    const foreign = new AbortController();
    foreign.abort(new Error('other'));
    expect(abortKind(foreign.signal)).toBe('cancelled');
    expect(abortKind(new AbortController().signal)).toBeUndefined();
  });

  it('a turn scope created from an outer signal is cancelled with it', () => {
    const outer = new AbortController();
    const turn = new TurnScope(outer.signal);
    const active = turn.startCall({ callId: 'a' });
    outer.abort();
    expect(abortKind(active.context.signal)).toBe('cancelled');
    active.end();
  });
});
