import type { ApprovalWays } from '@openwork/permission-policy';
import { shellQuote } from './shell-quote.ts';

/** Why nobody could be asked: `call` with no terminal, or an MCP client without elicitation. */
export type NobodyToAsk = 'no-terminal' | 'mcp-client';

const WHY: Readonly<Record<NobodyToAsk, { readonly why: string; readonly again: string }>> = {
  'no-terminal': { why: 'there is no terminal to ask', again: 'run it again with' },
  'mcp-client': { why: 'the MCP client could not ask (it does not support elicitation, or gave no answer)', again: 'restart the server with' },
};

/**
 * The end of a denial nobody could answer (docs/contract.md §4.3): the flag
 * or setting that would let this call run, as it is to be typed: the exact
 * allow rule (`--allow 'bash:npm test'`, or the same rule in the user
 * settings file's `permissions.allow`), `--mode acceptEdits` where that mode
 * runs it, a root that holds a path outside the roots, and `--yes`, which
 * approves every ask.
 */
export function approvalHint(ways: ApprovalWays, nobody: NobodyToAsk, settingsFile: string): string {
  const { why, again } = WHY[nobody];
  const options = [
    ...ways.allowRules.map((rule) => `--allow ${shellQuote(rule)} (or ${JSON.stringify(rule)} in "permissions.allow" of ${settingsFile})`),
    ...(ways.acceptEdits ? ['--mode acceptEdits'] : []),
    ...(ways.root === 'readable' ? ['--read-root DIR (a directory that holds the path)'] : ways.root === 'writable' ? ['--root DIR (a directory that holds the path)'] : []),
    '--yes to approve every ask',
  ];
  return `${why}; ${again} ${options.join(', or ')}`;
}
