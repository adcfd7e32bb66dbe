import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition } from '@openwork/tool-contract';

/** What a client shows for each built-in tool, and whether calling it twice changes more than once. */
const KNOWN: Readonly<Record<string, { readonly title: string; readonly idempotent: boolean }>> = {
  'filesystem/read': { title: 'Read file', idempotent: true },
  'filesystem/list': { title: 'List directory', idempotent: true },
  'filesystem/glob': { title: 'Find files by pattern', idempotent: true },
  'filesystem/grep': { title: 'Search file contents', idempotent: true },
  // The same content written twice leaves the same file.
  'filesystem/write': { title: 'Write file', idempotent: true },
  // A second identical edit finds no match, or replaces again (`a` → `ab`).
  'filesystem/edit': { title: 'Edit file', idempotent: false },
  'process/bash': { title: 'Run bash command', idempotent: false },
  'process/bash-output': { title: 'Read background command output', idempotent: false },
  'process/bash-kill': { title: 'Kill background command', idempotent: false },
  'process/bash-write': { title: 'Type into background command', idempotent: false },
};

/**
 * The MCP hints of a tool, from its risk (clients decide auto-approval and
 * warnings on them): read tools change nothing; write and edit change files
 * inside the roots, each change undoable, so they are not destructive; a
 * bash command may delete anything and reach the network.
 */
export function toolAnnotations(definition: Pick<ToolDefinition, 'name' | 'id' | 'risk'>): ToolAnnotations & { readonly title: string } {
  const known = KNOWN[definition.id];
  const title = known?.title ?? definition.name;
  switch (definition.risk) {
    case 'read':
      return { title, readOnlyHint: true, openWorldHint: false };
    case 'write':
      return { title, readOnlyHint: false, destructiveHint: false, idempotentHint: known?.idempotent ?? false, openWorldHint: false };
    case 'execute':
      return { title, readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
  }
}
