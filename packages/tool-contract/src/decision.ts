/** What the permission policy said about a call, and why (docs/contract.md §3). */
export interface PermissionDecision {
  readonly verdict: 'allow' | 'ask' | 'deny';
  readonly reason: string;
  /** Which list and rule let the call run on its own, or `ask`. */
  readonly rule: string;
  /** Present on an ask: whether the person (or `--yes`) approved it. */
  readonly approved?: boolean;
}
