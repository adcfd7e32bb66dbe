import type { BuiltinSession } from '../session.ts';
import { autoRunEnvironment, commandEnvironment, pathOutsideRoots } from '@openwork/bash-classifier';

/**
 * The environment a bash command runs with (docs/security.md). One the
 * classifier let run on its own gets one in which nothing the repository
 * configures or keeps runs: no credential, no program found inside a root.
 * One a person approved (or their allow rule) runs as written, with the
 * user's PATH and the credentials they passed through by name.
 */
export async function runEnvironment(session: BuiltinSession, autoRun: boolean, signal: AbortSignal): Promise<Record<string, string>> {
  if (!autoRun) return commandEnvironment(session.environment, session.passThroughEnvironment === undefined ? {} : { passThrough: session.passThroughEnvironment });
  return autoRunEnvironment(session.environment, { path: await pathOutsideRoots(session.environment.PATH, session.paths, signal) });
}
