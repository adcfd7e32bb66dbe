import type { ToolDefinition, ToolEffect } from '@openwork/tool-contract';

/**
 * What the policy reads of a call: the tool's name and the effect it
 * declared before running. A toolset's `AuthorizationRequest` is one.
 */
export interface PolicyRequest {
  readonly definition: Pick<ToolDefinition, 'name'>;
  readonly effect: ToolEffect;
  readonly signal: AbortSignal;
}
