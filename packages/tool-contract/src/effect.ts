/**
 * What a call says it will do before it runs; the permission decision reads
 * this, never the tool's code. Paths are as the model gave them.
 */
export type ToolEffect =
  | { readonly kind: 'read'; readonly paths: readonly string[] }
  | { readonly kind: 'write'; readonly paths: readonly string[] }
  | { readonly kind: 'execute'; readonly command: string; readonly cwd: string };
