import type { BuiltinSession } from '@openwork/builtin-tools';
import { toolsetInstructions, type PermissionMode } from '@openwork/permission-policy';
import type { FinalizedToolset } from '@openwork/toolset-finalizer';

/** What happens on an ask when a person may be asked through the client. */
export const MCP_APPROVAL =
  'a call that needs approval is put to the person through the client (an MCP elicitation form); when the client cannot ask, the call is denied and the reason names the flag that would allow it (--yes, --allow, --mode).';

/** What happens on an ask under --yes. */
export const MCP_APPROVAL_YES = 'every call that needs approval runs: the server was started with --yes (deny rules still apply).';

/** Said when the roots may come from the client, after initialize. */
export const CLIENT_ROOTS_NOTE = 'If this client sends MCP roots, they are the roots instead (the first is the working directory), and each change of them counts from then on.';

/**
 * The server's MCP `instructions` (docs/contract.md §5.1): the library's text
 * for this toolset and mode, with the server's line on approval; when the
 * client's roots may replace the command line's, a line saying so.
 */
export function mcpInstructions(
  toolset: FinalizedToolset<BuiltinSession>,
  options: { readonly mode: PermissionMode; readonly yes: boolean; readonly clientRoots: boolean },
): string {
  const text = toolsetInstructions(toolset, { mode: options.mode, approval: options.yes ? MCP_APPROVAL_YES : MCP_APPROVAL });
  return options.clientRoots ? `${text}\n${CLIENT_ROOTS_NOTE}` : text;
}
