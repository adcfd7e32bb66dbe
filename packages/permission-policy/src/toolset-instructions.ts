import type { BuiltinSession } from '@openwork/builtin-tools';
import type { PermissionMode } from './permission-mode.ts';

/** What the instructions need of a finalized toolset (`FinalizedToolset<BuiltinSession>` has both). */
export interface InstructedToolset {
  readonly session: BuiltinSession;
  readonly names: readonly string[];
}

export interface ToolsetInstructionsOptions {
  /** The mode the toolset's policy decides in. */
  readonly mode: PermissionMode;
  /**
   * One line on what happens when a call needs approval, in the host's
   * words; default: a person is asked, and a call not approved is denied.
   */
  readonly approval?: string;
}

/** How a call that needs approval ends when the host gives no line of its own. */
export const DEFAULT_APPROVAL = 'a call that needs approval waits for a person to approve it; one not approved is denied, saying why.';

const MODES: Readonly<Record<PermissionMode, string>> = {
  default: 'reads and read-only commands run; every write, edit and other command asks for approval first',
  acceptEdits: 'reads, writes, edits and file commands (mkdir, touch, cp, mv, rm, sed -i, redirects) inside the writable roots run; other commands, and writes into .git/ or .openwork/, ask for approval first',
  readOnly: 'only the read tools are here; nothing can write or run a command',
};

/** Guidance every tool shares, said once here instead of in each description; shown when one of `tools` is in the toolset. */
const GUIDANCE: readonly { readonly tools: readonly string[]; readonly text: string }[] = [
  {
    tools: ['read', 'write', 'edit', 'grep', 'glob', 'list', 'bash'],
    text: 'Paths are relative to the working directory, or absolute inside a root. A path outside every root (also through a symlink) is `outside_root`; writing in a read-only or protected root is `protected`.',
  },
  { tools: ['bash'], text: 'Prefer read, write, edit, grep, glob and list to bash for files: they are checked against the roots, bash commands are not.' },
  { tools: ['edit'], text: 'Read a file before editing it: edit refuses (`stale`) a file that changed since you last read it.' },
  {
    tools: ['grep', 'glob', 'list'],
    text: 'Results are sorted by path bytes (list: by name), the same for the same tree. A path or name holding a control character is shown as a JSON string in double quotes: pass that string on; `data` has it as it is.',
  },
  {
    tools: ['grep', 'glob'],
    text: "`.git/` is never searched and symlinked directories are never followed; what ripgrep's ignore rules exclude (.gitignore, .ignore, .rgignore, .git/info/exclude, git's global excludes) is skipped unless `includeIgnored` is true.",
  },
  { tools: ['read', 'grep', 'glob', 'list', 'bash'], text: 'A result that was cut says so, and how to get the rest (`nextOffset`, `offset`) or how to narrow the call.' },
];

function rootLine(label: string, roots: readonly string[]): string[] {
  return roots.length === 0 ? [] : [`${label}: ${roots.join(', ')}`];
}

/**
 * The text that tells a model where its tools work and how calls are
 * decided: the roots (absolute), the mode, what happens on an ask, and the
 * guidance the tool descriptions leave out. The MCP server sends it as its
 * `instructions` at initialize (docs/contract.md §5.1); a host of the library
 * puts it in its system prompt.
 */
export function toolsetInstructions(toolset: InstructedToolset, options: ToolsetInstructionsOptions): string {
  const roots = toolset.session.paths.roots;
  const of = (kind: string) => roots.filter((root) => root.kind === kind).map((root) => root.path);
  const tools = new Set(toolset.names);
  return [
    `Working directory: ${toolset.session.workingDirectory}`,
    ...rootLine('Writable roots', of('writable')),
    ...rootLine('Read-only roots', of('read_only')),
    ...rootLine('Protected roots (readable, never writable)', of('protected')),
    `Mode ${options.mode}: ${MODES[options.mode]}.`,
    `Approval: ${options.approval ?? DEFAULT_APPROVAL}`,
    ...GUIDANCE.filter((entry) => entry.tools.some((name) => tools.has(name))).map((entry) => `- ${entry.text}`),
  ].join('\n');
}
