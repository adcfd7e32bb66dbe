import type { ToolRisk } from '@openwork/tool-contract';

/**
 * How much runs without asking (docs/design.md §7.1, docs/contract.md §4): `default` asks
 * before any write and any command off the read-only list, `acceptEdits`
 * lets writes and the filesystem gate's commands run, `readOnly` leaves
 * every tool that writes or runs a program out of the toolset.
 */
export type PermissionMode = 'default' | 'acceptEdits' | 'readOnly';

export const PERMISSION_MODES: readonly PermissionMode[] = Object.freeze(['default', 'acceptEdits', 'readOnly']);

export function isPermissionMode(value: string): value is PermissionMode {
  return (PERMISSION_MODES as readonly string[]).includes(value);
}

/**
 * The risks a toolset may hold in a mode, as a `Registry.finalize` selection:
 * in readOnly a tool that would only be denied is better not advertised at all.
 */
export function modeSelection(mode: PermissionMode): { readonly risks?: readonly ToolRisk[] } {
  return mode === 'readOnly' ? { risks: ['read'] } : {};
}
