import type * as NodePty from 'node-pty';

export type NodePtyModule = typeof NodePty;

let loading: Promise<NodePtyModule> | undefined;

/** node-pty is an optional native dependency: it is loaded on first use, once, and may be missing. */
export function loadNodePty(): Promise<NodePtyModule> {
  loading ??= import('node-pty');
  return loading;
}
