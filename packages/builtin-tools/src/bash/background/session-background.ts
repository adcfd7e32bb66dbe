import { ToolError } from '@openwork/tool-contract';
import type { BuiltinSession } from '../../session.ts';
import type { BackgroundCommands } from './background-commands.ts';

/** The session's background commands, or the error of a session that keeps none. */
export function sessionBackground(session: BuiltinSession): BackgroundCommands {
  if (session.background === undefined) {
    throw new ToolError('not_found', 'this session keeps no background commands (a one-shot call ends with its command); start one with bash runInBackground in a session that outlives the call');
  }
  return session.background;
}

/** What the companions of bash declare: they act on a command this session already started, which was decided then. */
export const NO_NEW_EFFECT: { readonly kind: 'read'; readonly paths: readonly string[] } = Object.freeze({ kind: 'read', paths: Object.freeze([]) });
