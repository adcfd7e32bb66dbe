/**
 * What a call says it will do before it runs; the permission decision reads
 * this, never the tool's code. Paths are as the model gave them. An execute
 * effect with `terminal` runs on a terminal that input is written to later,
 * which no decision sees: a person approves it (docs/contract.md §4). A
 * `background` effect acts only on a command the session already started
 * (bash_output, bash_kill, bash_write): that command was decided when it
 * started, so nothing new is decided (docs/contract.md §2.5).
 */
export type ToolEffect =
  | { readonly kind: 'read'; readonly paths: readonly string[] }
  | { readonly kind: 'write'; readonly paths: readonly string[] }
  | { readonly kind: 'execute'; readonly command: string; readonly cwd: string; readonly terminal?: boolean }
  | { readonly kind: 'background'; readonly backgroundId: string };

/** Why a `background` effect runs without asking: it acts only on a command the session started, decided when it started. */
export function backgroundReason(tool: string, backgroundId: string): string {
  return `${tool} acts only on ${backgroundId}, a command this session already started; it was decided when it started`;
}
