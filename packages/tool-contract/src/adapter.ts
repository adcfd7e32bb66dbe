import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { TObject } from 'typebox';
import { abortKind } from './cancellation.ts';
import type { ToolCallContext, ToolSessionContext } from './context.ts';
import type { PermissionDecision } from './decision.ts';
import type { ToolEffect } from './effect.ts';
import { safeProgress } from './progress.ts';
import { errorText, type ErrorToolResult, type ToolResult } from './result.ts';
import type { Tool } from './tool.ts';
import { isToolError, type ToolErrorData } from './tool-error.ts';
import type { ToolId, ToolRisk } from './tool-id.ts';

/** The generic form of a tool definition; the model formats derive from it. */
export interface ToolDefinition {
  readonly name: string;
  readonly id: ToolId;
  readonly description: string;
  readonly risk: ToolRisk;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** The shape of an ok result's `data`, when the tool declares one (not part of the model formats). */
  readonly outputSchema?: Readonly<Record<string, unknown>>;
}

/** A validated call, ready to run once the permission decision allows it. */
export interface PreparedCall {
  readonly effect: ToolEffect;
  readonly run: (call: ToolCallContext, decision?: PermissionDecision) => Promise<ToolResult>;
}

/**
 * The type-erased tool (docs/design.md §2 "object-safe dispatch"): JSON in, one ToolResult
 * out. Schema, risk and execution come from the same registered tool.
 */
export interface DynTool<Session extends ToolSessionContext = ToolSessionContext> {
  readonly definition: ToolDefinition;
  /** Validates the JSON input and declares the call's effect, running nothing. */
  readonly prepare: (session: Session, input: unknown, callId: string) => PreparedCall | ErrorToolResult;
  /** The name of the tool without which a toolset leaves this one out. */
  readonly accompanies?: string;
}

/**
 * A deep, frozen JSON copy of a schema (docs/design.md §6: nothing changes after
 * finalize): what is advertised and what the validator compiles are this
 * copy, so neither a caller mutating a definition nor the tool's own schema
 * object changing later can make them differ.
 */
function frozenCopy(schema: unknown): Readonly<Record<string, unknown>> {
  const freeze = (value: unknown): unknown => {
    if (value !== null && typeof value === 'object') {
      for (const child of Object.values(value)) freeze(child);
      Object.freeze(value);
    }
    return value;
  };
  return freeze(JSON.parse(JSON.stringify(schema))) as Readonly<Record<string, unknown>>;
}

const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false });

/** Wraps a typed tool; ajv compiles its schema once, at its first call (a listing never pays for it). */
export function adaptTool<Input extends TObject, Output, Session extends ToolSessionContext>(
  tool: Tool<Input, Output, Session>,
): DynTool<Session> {
  // Unknown properties are rejected whatever the tool wrote: the advertised
  // schema and the validator are this one object.
  const inputSchema = frozenCopy({ ...tool.input, additionalProperties: false });
  let compiled: ValidateFunction | undefined;
  const validator = (): ValidateFunction => (compiled ??= ajv.compile(inputSchema));
  const definition: ToolDefinition = Object.freeze({
    name: tool.name,
    id: tool.id,
    description: tool.description,
    risk: tool.risk,
    inputSchema,
    ...(tool.output === undefined ? {} : { outputSchema: frozenCopy(tool.output) }),
  });
  const failure = (callId: string, error: ToolErrorData, decision?: PermissionDecision): ErrorToolResult =>
    errorResult({ tool: tool.name, toolId: tool.id, callId, error, ...(decision ? { decision } : {}) });

  return Object.freeze({
    definition,
    ...(tool.accompanies === undefined ? {} : { accompanies: tool.accompanies }),
    prepare(session: Session, input: unknown, callId: string): PreparedCall | ErrorToolResult {
      const validate = validator();
      if (!validate(input)) {
        return failure(callId, { kind: 'invalid_input', message: describeInvalid(tool.name, validate.errors ?? []) });
      }
      const typed = input as Parameters<typeof tool.execute>[2];
      let effect: ToolEffect;
      try {
        effect = tool.effect(typed, session);
      } catch (error) {
        return failure(callId, toErrorData(error));
      }
      return {
        effect,
        run: async (call, decision) => {
          const withDecision = decision ? { decision } : {};
          const aborted = abortKind(call.signal);
          if (aborted) return failure(call.callId, abortedError(aborted), decision);
          try {
            // docs/design.md §10: a sink that throws or rejects never changes the result, whatever the tool does with it.
            const guarded = call.progress === undefined ? call : { ...call, progress: safeProgress(call.progress) };
            const outcome = await tool.execute(session, guarded, typed, withDecision);
            return {
              tool: tool.name,
              toolId: tool.id,
              callId: call.callId,
              status: 'ok',
              output: outcome.output,
              data: outcome.data,
              artifacts: outcome.artifacts ?? [],
              ...(outcome.images !== undefined && outcome.images.length > 0 ? { images: outcome.images } : {}),
              ...withDecision,
            };
          } catch (error) {
            const late = abortKind(call.signal);
            // A throw caused by the call's own signal is its cancel or deadline.
            const data = late && !isToolError(error) ? abortedError(late) : toErrorData(error);
            return failure(call.callId, data, decision);
          }
        },
      };
    },
  });
}

/** Builds an error result; also used by the toolset for unknown tools and denials. */
export function errorResult(fields: {
  tool: string;
  toolId: ToolId | null;
  callId: string;
  error: ToolErrorData;
  decision?: PermissionDecision;
}): ErrorToolResult {
  return {
    tool: fields.tool,
    toolId: fields.toolId,
    callId: fields.callId,
    status: fields.error.kind === 'denied' ? 'denied' : 'error',
    output: errorText(fields.error),
    error: fields.error,
    artifacts: [],
    ...(fields.decision ? { decision: fields.decision } : {}),
  };
}

function abortedError(kind: 'cancelled' | 'timed_out'): ToolErrorData {
  return kind === 'timed_out'
    ? { kind, message: 'the call reached its deadline before it finished; try a narrower request or a longer timeout' }
    : { kind, message: 'the call was cancelled before it finished' };
}

/** Anything a tool throws becomes data: its ToolError kind, or `io`. */
export function toErrorData(error: unknown): ToolErrorData {
  if (isToolError(error)) return error.toData();
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'io', message: `unexpected failure: ${message}` };
}

function describeInvalid(name: string, errors: readonly ErrorObject[]): string {
  const parts = errors.map((error) => {
    const where = error.instancePath === '' ? 'input' : `input${error.instancePath.replaceAll('/', '.')}`;
    if (error.keyword === 'additionalProperties') {
      return `${where} has an unknown property ${JSON.stringify((error.params as { additionalProperty: string }).additionalProperty)}`;
    }
    if (error.keyword === 'required') {
      return `${where} is missing ${JSON.stringify((error.params as { missingProperty: string }).missingProperty)}`;
    }
    return `${where} ${error.message ?? 'is invalid'}`;
  });
  return `invalid input for ${name}: ${[...new Set(parts)].join('; ')}; fix the arguments to match the tool's schema`;
}
