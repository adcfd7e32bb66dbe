import { errorResult, TurnScope, type ActiveCall, type CallOptions, type ToolErrorData, type ToolResult, type ToolSessionContext } from '@openwork/tool-contract';
import type { Authorize, FinalizedToolset } from '../finalized-toolset.ts';

/**
 * Where each call of a model turn gets its context. A `TurnScope` is one;
 * a product that wants progress or its own deadlines wraps `startCall`.
 */
export interface CallStarter {
  startCall(options: CallOptions): ActiveCall;
}

/** How an adapter runs the calls a model asked for. */
export interface ToolLoopOptions {
  /** The turn the calls belong to; default: a new `TurnScope` per batch. */
  readonly turn?: CallStarter;
  /** Core's permission decision, asked before each call runs; without it, the toolset's own (reads only, unless it was finalized with one). */
  readonly authorize?: Authorize;
  /** Each call's deadline, relative to its start. */
  readonly timeoutMs?: number;
  /** Sees every full result, artifacts included (for an undo journal); the model never does. */
  readonly onResult?: (result: ToolResult) => void;
  /** Run the calls at once rather than one after another; results keep the model's order either way. */
  readonly parallel?: boolean;
}

/** One call as the model wrote it, or why its input could not be read. */
export type ModelCall =
  | { readonly callId: string; readonly name: string; readonly input: unknown }
  | { readonly callId: string; readonly name: string; readonly invalid: ToolErrorData };

/** Runs one call to its single result: a context from the turn, released whatever happens. */
export async function runModelCall<Session extends ToolSessionContext>(
  toolset: FinalizedToolset<Session>,
  call: ModelCall,
  options: ToolLoopOptions,
  turn: CallStarter,
): Promise<ToolResult> {
  let result: ToolResult;
  if ('invalid' in call && toolset.has(call.name)) {
    // Nothing runs for input the model did not write as JSON.
    const toolId = toolset.definitions.find((definition) => definition.name === call.name)?.id ?? null;
    result = errorResult({ tool: call.name, toolId, callId: call.callId, error: call.invalid });
  } else {
    const active = turn.startCall({ callId: call.callId, ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }) });
    try {
      const input = 'input' in call ? call.input : undefined;
      result = await toolset.call(call.name, input, active.context, options.authorize ? { authorize: options.authorize } : {});
    } finally {
      active.end();
    }
  }
  options.onResult?.(result);
  return result;
}

/** Runs a batch of calls, in order or at once, and returns their results in the model's order. */
export async function runModelCalls<Session extends ToolSessionContext>(
  toolset: FinalizedToolset<Session>,
  calls: readonly ModelCall[],
  options: ToolLoopOptions,
): Promise<ToolResult[]> {
  const turn = options.turn ?? new TurnScope();
  if (options.parallel === true) return Promise.all(calls.map((call) => runModelCall(toolset, call, options, turn)));
  const results: ToolResult[] = [];
  for (const call of calls) results.push(await runModelCall(toolset, call, options, turn));
  return results;
}
