import { type BuiltinSession } from '@openwork/builtin-tools';
import { bashReader, gitConfigReader } from '@openwork/bash-classifier';
import type { PolicyOptions } from './decide.ts';

export interface SessionPolicyOptions {
  /**
   * Runs `git config` and bash's reading of a line before a git command is let run on its own; default the
   * session's backend. A pty backend merges the streams and rewrites line
   * ends, so a session whose commands run on a terminal passes a pipe backend.
   */
  readonly gitProcesses?: BuiltinSession['processes'];
}

/** What the policy needs of a session: its guard, its file system for globs, git's configuration and bash's reading of a line. */
export function sessionPolicy(session: BuiltinSession, options: SessionPolicyOptions = {}): Pick<PolicyOptions, 'paths' | 'filesystem' | 'gitConfig' | 'bashReader'> {
  return {
    paths: session.paths,
    filesystem: session.filesystem,
    gitConfig: gitConfigReader(options.gitProcesses ?? session.processes, session.environment, { paths: session.paths }),
    bashReader: bashReader(options.gitProcesses ?? session.processes, session.environment, { paths: session.paths }),
  };
}
