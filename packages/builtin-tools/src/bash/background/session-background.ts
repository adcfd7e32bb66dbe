import { ToolError, type ToolEffect } from '@openwork/tool-contract';
import type { BuiltinSession } from '../../session.ts';
import type { BackgroundCommands } from './background-commands.ts';

/** The session's background commands, or the error of a session that keeps none. */
export function sessionBackground(session: BuiltinSession): BackgroundCommands {
  if (session.background === undefined) {
    throw new ToolError('not_found', 'this session keeps no background commands (a one-shot call ends with its command); start one with bash runInBackground in a session that outlives the call');
  }
  return session.background;
}

/** What the companions of bash declare: they act only on a command this session already started, which was decided then. */
export function startedCommandEffect(input: { readonly backgroundId: string }): Extract<ToolEffect, { kind: 'background' }> {
  return { kind: 'background', backgroundId: input.backgroundId };
}
