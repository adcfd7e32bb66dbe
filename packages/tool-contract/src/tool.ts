import type { Static, TObject, TSchema } from 'typebox';
import type { Artifact } from './artifact.ts';
import type { ToolCallContext, ToolSessionContext } from './context.ts';
import type { PermissionDecision } from './decision.ts';
import type { ToolEffect } from './effect.ts';
import type { ImagePart } from './result.ts';
import { TOOL_NAME, toolId, type ToolId, type ToolRisk } from './tool-id.ts';

/** How the call came to run: the policy's decision, when one was asked (docs/design.md §7.1). */
export interface ExecutionAuthorization {
  /**
   * `allow` when the policy let the call run on its own, `ask` with
   * `approved` when a person approved it; absent when no policy was asked.
   * A tool may run an auto-allowed call more strictly than an approved one.
   */
  readonly decision?: PermissionDecision;
}

/** What a tool's execute returns on success; failures throw `ToolError`. */
export interface ToolOutcome<Output> {
  readonly data: Output;
  /** The model text. */
  readonly output: string;
  readonly artifacts?: readonly Artifact[];
  /** Images for the model beside the text, named by it; they become the ok result's `images`. */
  readonly images?: readonly ImagePart[];
}

/**
 * The tool contract (docs/design.md §2). The input type is `Static<typeof input>`, so
 * the schema the model sees and the value execute receives cannot disagree.
 */
export interface Tool<Input extends TObject, Output, Session extends ToolSessionContext = ToolSessionContext> {
  readonly id: ToolId;
  /** The model-facing name. */
  readonly name: string;
  readonly description: string;
  readonly risk: ToolRisk;
  readonly input: Input;
  /** The shape of `data` on success, where it is fixed (the definition's outputSchema); never shown to the model. */
  readonly output?: TSchema;
  /** What this call will read, write or execute; decided before it runs. */
  readonly effect: (input: Static<Input>, session: Session) => ToolEffect;
  readonly execute: (session: Session, call: ToolCallContext, input: Static<Input>, authorization: ExecutionAuthorization) => Promise<ToolOutcome<Output>>;
  /**
   * The name of the tool this one works with (bash_output: `bash`): a toolset
   * holds it only beside that tool.
   */
  readonly accompanies?: string;
}

export interface ToolSpec<Input extends TObject, Output, Session extends ToolSessionContext> {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly risk: ToolRisk;
  readonly input: Input;
  /** The shape of `data` on success, where it is fixed (the definition's outputSchema); never shown to the model. */
  readonly output?: TSchema;
  readonly effect: (input: Static<Input>, session: Session) => ToolEffect;
  readonly execute: (session: Session, call: ToolCallContext, input: Static<Input>, authorization: ExecutionAuthorization) => Promise<ToolOutcome<Output>>;
  /**
   * The name of the tool this one works with (bash_output: `bash`): a toolset
   * holds it only beside that tool.
   */
  readonly accompanies?: string;
}

/** Checks the spec once and freezes it; a malformed spec is a programmer error. */
export function defineTool<Input extends TObject, Output, Session extends ToolSessionContext = ToolSessionContext>(
  spec: ToolSpec<Input, Output, Session>,
): Tool<Input, Output, Session> {
  if (!TOOL_NAME.test(spec.name)) throw new TypeError(`tool name must match ${String(TOOL_NAME)}: ${JSON.stringify(spec.name)}`);
  if (spec.description.trim() === '') throw new TypeError(`tool ${spec.name} needs a description`);
  return Object.freeze({ ...spec, id: toolId(spec.id) });
}
