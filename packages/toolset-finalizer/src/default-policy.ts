import { backgroundReason, type PermissionDecision, type ToolEffect } from '@openwork/tool-contract';
import type { AuthorizationRequest, Authorize } from './finalized-toolset.ts';

/** The longest part of a command quoted back in a reason. */
const MAX_ECHO_CHARS = 200;

function describeEffect(name: string, effect: ToolEffect): string {
  switch (effect.kind) {
    case 'read':
      return `${name} reads ${effect.paths.join(', ')}`;
    case 'write':
      return `${name} writes ${effect.paths.join(', ')}`;
    case 'execute': {
      const quoted = effect.command.length <= MAX_ECHO_CHARS ? JSON.stringify(effect.command) : `${JSON.stringify(effect.command.slice(0, MAX_ECHO_CHARS))}…`;
      return `${name} runs ${quoted}`;
    }
    case 'background':
      return `${name} acts on ${effect.backgroundId}`;
  }
}

/** What the denial of a toolset without a policy says: how to give it one. */
export const NO_POLICY_NOTE =
  'this toolset has no permission policy to ask with; give it one with finalize(session, selection, { authorize }) or call(…, { authorize }) (authorizer from @openwork/permission-policy), or allowAll to run every call';

/**
 * The policy of a toolset finalized without one: reads run (and the
 * companions of bash, which act only on a command already started), and anything
 * else is an ask with nobody to answer it, so it is not run, and the reason
 * says how to pass a policy. Safe by default: running writes and commands is
 * something a caller asks for (docs/decisions/0015).
 */
export const readsOnly: Authorize = (request: AuthorizationRequest): Promise<PermissionDecision> => {
  const { effect } = request;
  const name = request.definition.name;
  if (effect.kind === 'read') return Promise.resolve({ verdict: 'allow', reason: 'reading is allowed', rule: 'read' });
  if (effect.kind === 'background') return Promise.resolve({ verdict: 'allow', reason: backgroundReason(name, effect.backgroundId), rule: 'background' });
  return Promise.resolve({ verdict: 'ask', reason: `${describeEffect(name, effect)}; ${NO_POLICY_NOTE}`, rule: 'ask', approved: false });
};

/**
 * Runs every call, as `--yes` does: reads are allowed and every other call
 * is an ask approved in advance, so a command runs as written. For a caller
 * who decides elsewhere (a sandbox, a test) and says so in the code.
 */
export const allowAll: Authorize = (request: AuthorizationRequest): Promise<PermissionDecision> =>
  Promise.resolve(
    request.effect.kind === 'read' || request.effect.kind === 'background'
      ? { verdict: 'allow', reason: 'allowAll allows every call', rule: 'allowAll' }
      : { verdict: 'ask', reason: `${describeEffect(request.definition.name, request.effect)}; allowAll approves every call`, rule: 'allowAll', approved: true },
  );
