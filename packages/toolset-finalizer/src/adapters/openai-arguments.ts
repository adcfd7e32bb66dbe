import type { ToolSessionContext } from '@openwork/tool-contract';
import type { FinalizedToolset } from '../finalized-toolset.ts';
import { fromOpenAiStrictInput } from '../schema/openai-strict.ts';
import type { ModelCall } from './run-call.ts';

/**
 * One OpenAI function call, Chat Completions or Responses, read into a
 * call: arguments that are not JSON run nothing, and a `null` the strict
 * schema put in place of an optional property is read back as absent
 * (harmless without strict mode: such a null is invalid there anyway).
 */
export function readFunctionCall<Session extends ToolSessionContext>(
  toolset: FinalizedToolset<Session>,
  callId: string,
  name: string,
  text: string,
): ModelCall {
  let input: unknown;
  try {
    input = JSON.parse(text) as unknown;
  } catch {
    return {
      callId,
      name,
      invalid: { kind: 'invalid_input', message: `the arguments of ${name} are not JSON; send one JSON object that matches the tool's schema` },
    };
  }
  const definition = toolset.definitions.find((candidate) => candidate.name === name);
  return { callId, name, input: definition ? fromOpenAiStrictInput(definition.inputSchema, input) : input };
}
