/**
 * What a call says it will do before it runs; the permission decision reads
 * this, never the tool's code. Paths are as the model gave them. An execute
 * effect with `terminal` runs on a terminal that input is written to later,
 * which no decision sees: a person approves it (docs/contract.md §4).
 */
export type ToolEffect =
  | { readonly kind: 'read'; readonly paths: readonly string[] }
  | { readonly kind: 'write'; readonly paths: readonly string[] }
  | { readonly kind: 'execute'; readonly command: string; readonly cwd: string; readonly terminal?: boolean };
