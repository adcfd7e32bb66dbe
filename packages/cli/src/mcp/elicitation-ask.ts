import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AskAnswer, AskPerson } from '@openwork/permission-policy';

/**
 * How long an approval may wait for its person. The client's own timeout on
 * the tools/call, and the call's deadline, end the wait sooner.
 */
const APPROVAL_TIMEOUT_MS = 10 * 60_000;

/**
 * Puts an ask to the person behind the MCP client as an elicitation
 * (`elicitation/create`, a form with no fields: accept approves, decline or
 * dismiss refuses), with the policy's reason in its message. A client that
 * did not declare form elicitation cannot be asked: the ask is unanswered,
 * and its denial names the flags that would let the call run.
 */
export function elicitationAsk(server: () => Server | undefined, log: (text: string) => void): AskPerson {
  const question = elicitationQuestion(server, log);
  return ({ question: text, signal }) => question(text, signal);
}

/**
 * Puts one yes-or-no question to the person behind the client, as an ask
 * is put; a client without form elicitation leaves it unanswered.
 */
export function elicitationQuestion(server: () => Server | undefined, log: (text: string) => void): (question: string, signal: AbortSignal) => Promise<AskAnswer> {
  return async (question, signal) => {
    const current = server();
    if (current?.getClientCapabilities()?.elicitation?.form === undefined) return 'unanswered';
    try {
      const result = await current.elicitInput({ mode: 'form', message: question, requestedSchema: { type: 'object', properties: {} } }, { signal, timeout: APPROVAL_TIMEOUT_MS });
      return result.action === 'accept' ? 'approved' : 'refused';
    } catch (error) {
      if (!signal.aborted) log(`openwork-tools mcp: an approval request failed: ${error instanceof Error ? error.message : String(error)}\n`);
      return 'unanswered';
    }
  };
}
