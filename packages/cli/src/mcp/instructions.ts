import type { BuiltinSession } from '@openwork/builtin-tools';
import { toolsetInstructions, type PermissionMode } from '@openwork/permission-policy';
import type { FinalizedToolset } from '@openwork/toolset-finalizer';

/** What happens on an ask when a person may be asked through the client. */
export const MCP_APPROVAL =
  'a call that needs approval is put to the person through the client (an MCP elicitation form); when the client cannot ask, the call is denied and the reason names the flag that would allow it (--yes, --allow, --mode).';

/** What happens on an ask under --yes. */
export const MCP_APPROVAL_YES = 'every call that needs approval runs: the server was started with --yes (deny rules still apply).';

/** Said when the client's roots may replace the command line's. */
export const CLIENT_ROOTS_NOTE = 'If this client sends MCP roots, they replace the working directory and writable roots above: the first is the working directory.';

/** Said instead of the working directory and writable roots when only the client's roots can be served. */
export const CLIENT_ROOTS_ONLY = "Working directory and writable roots: this client's MCP roots, as they change; the first is the working directory.";

/**
 * Where the roots come from: the command line's; the client's when it
 * sends any, else the command line's; or only the client's (the start
 * directory is too wide to serve).
 */
export type InstructedRoots = 'command-line' | 'client-or-command-line' | 'client';

const ROOT_LINES = ['Working directory: ', 'Writable roots: '];

/**
 * The server's MCP `instructions` (docs/contract.md §5.1): the library's text
 * for this toolset and mode, with the server's line on approval, and what
 * the client's roots change.
 */
export function mcpInstructions(
  toolset: FinalizedToolset<BuiltinSession>,
  options: { readonly mode: PermissionMode; readonly yes: boolean; readonly roots: InstructedRoots },
): string {
  const text = toolsetInstructions(toolset, { mode: options.mode, approval: options.yes ? MCP_APPROVAL_YES : MCP_APPROVAL });
  if (options.roots === 'command-line') return text;
  const lines = text.split('\n');
  const own = lines.filter((line) => ROOT_LINES.some((start) => line.startsWith(start))).length;
  return options.roots === 'client' ? [CLIENT_ROOTS_ONLY, ...lines.slice(own)].join('\n') : [...lines.slice(0, own), CLIENT_ROOTS_NOTE, ...lines.slice(own)].join('\n');
}
