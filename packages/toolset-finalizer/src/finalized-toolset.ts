import {
  errorResult,
  type DynTool,
  type PermissionDecision,
  type ToolCallContext,
  type ToolDefinition,
  type ToolEffect,
  type ToolResult,
  type ToolSessionContext,
} from '@openwork/tool-contract';
import {
  toAnthropic,
  toGemini,
  toGeneric,
  toOpenAi,
  toOpenAiResponses,
  type AnthropicToolDefinition,
  type GeminiFunctionDeclaration,
  type GenericToolDefinition,
  type OpenAiDefinitionOptions,
  type OpenAiResponsesToolDefinition,
  type OpenAiToolDefinition,
} from './model-formats.ts';
import { readsOnly } from './default-policy.ts';

/** What the permission policy is asked before a call runs. */
export interface AuthorizationRequest {
  readonly definition: ToolDefinition;
  readonly effect: ToolEffect;
  readonly input: unknown;
  readonly callId: string;
  readonly signal: AbortSignal;
}

/** Decides a call; an `ask` must come back with `approved` set by the person. */
export type Authorize = (request: AuthorizationRequest) => Promise<PermissionDecision>;

export interface CallToolOptions {
  /** Core's permission decision (docs/design.md §7.1) for this call; without it, the toolset's own. */
  readonly authorize?: Authorize;
}

export interface FinalizeOptions {
  /**
   * The toolset's permission policy, asked before each call that brings no
   * `authorize` of its own. Without one, `readsOnly`: reads run, and every
   * other call is denied with a reason saying how to give a policy.
   */
  readonly authorize?: Authorize;
}

/**
 * The one object core holds (docs/design.md §6): definitions and dispatch built from
 * the same selected entries, the session bound once, nothing to add, remove
 * or replace afterwards.
 */
export class FinalizedToolset<Session extends ToolSessionContext = ToolSessionContext> {
  readonly definitions: readonly ToolDefinition[];
  readonly session: Session;
  readonly #tools: ReadonlyMap<string, DynTool<Session>>;
  readonly #authorize: Authorize;

  private constructor(entries: readonly DynTool<Session>[], session: Session, options: FinalizeOptions) {
    const tools = new Map<string, DynTool<Session>>();
    for (const entry of entries) {
      if (tools.has(entry.definition.name)) throw new Error(`tool ${entry.definition.name} was selected twice`);
      tools.set(entry.definition.name, entry);
    }
    // docs/design.md §6 invariant 1: definitions and dispatch come from one list.
    this.definitions = Object.freeze([...tools.values()].map((entry) => entry.definition));
    this.#tools = tools;
    this.#authorize = options.authorize ?? readsOnly;
    this.session = session;
    Object.freeze(this);
  }

  /** Binds the session, and the policy when one is given, to the selected entries (docs/design.md §6). */
  static finalize<Session extends ToolSessionContext>(
    entries: readonly DynTool<Session>[],
    session: Session,
    options: FinalizeOptions = {},
  ): FinalizedToolset<Session> {
    return new FinalizedToolset(entries, session, options);
  }

  get names(): readonly string[] {
    return this.definitions.map((definition) => definition.name);
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  genericDefinitions(): GenericToolDefinition[] {
    return this.definitions.map(toGeneric);
  }

  anthropicDefinitions(): AnthropicToolDefinition[] {
    return this.definitions.map(toAnthropic);
  }

  /** Chat Completions tools; `{ strict: true }` for strict mode. */
  openAiDefinitions(options: OpenAiDefinitionOptions = {}): OpenAiToolDefinition[] {
    return this.definitions.map((definition) => toOpenAi(definition, options));
  }

  /** Responses API tools, strict unless `{ strict: false }`. */
  openAiResponsesDefinitions(options: OpenAiDefinitionOptions = {}): OpenAiResponsesToolDefinition[] {
    return this.definitions.map((definition) => toOpenAiResponses(definition, options));
  }

  /** Gemini function declarations, for `tools: [{ functionDeclarations }]`. */
  geminiDefinitions(): GeminiFunctionDeclaration[] {
    return this.definitions.map(toGemini);
  }

  /**
   * Runs one call: looks only in this toolset's map, validates, asks the
   * policy (the call's, else the toolset's, else `readsOnly`), and only then
   * executes. Always resolves to exactly one result.
   */
  async call(name: string, input: unknown, call: ToolCallContext, options: CallToolOptions = {}): Promise<ToolResult> {
    const entry = this.#tools.get(name);
    if (!entry) {
      return errorResult({
        tool: name,
        toolId: null,
        callId: call.callId,
        error: { kind: 'unknown_tool', message: `there is no tool named ${JSON.stringify(name)}; available tools: ${this.names.join(', ')}` },
      });
    }
    const prepared = entry.prepare(this.session, input, call.callId);
    if (!('run' in prepared)) return prepared;
    const authorize = options.authorize ?? this.#authorize;
    let decision: PermissionDecision;
    try {
      decision = await authorize({ definition: entry.definition, effect: prepared.effect, input, callId: call.callId, signal: call.signal });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return errorResult({ tool: name, toolId: entry.definition.id, callId: call.callId, error: { kind: 'io', message: `the permission check failed: ${message}` } });
    }
    if (decision.verdict === 'deny' || (decision.verdict === 'ask' && decision.approved !== true)) {
      return errorResult({
        tool: name,
        toolId: entry.definition.id,
        callId: call.callId,
        decision,
        error: { kind: 'denied', message: `${name} was not run: ${decision.reason}` },
      });
    }
    return prepared.run(call, decision);
  }
}
