import { TurnScope, type PermissionDecision } from '@openwork/tool-contract';
import { bashTool, builtinTools, type BashData } from '../src/index.ts';
import { bashReader, decideBashCommand, gitConfigReader, type CommandClassifier } from '@openwork/bash-classifier';
import type { Harness } from './harness.ts';

/** The policy's decision for a command in the harness's working directory, with every reader the session policy gives. */
export function decideIn(h: Harness, classifier: CommandClassifier, command: string, mode: 'default' | 'acceptEdits' = 'default'): Promise<PermissionDecision> {
  return decideBashCommand(classifier, h.session.paths, { kind: 'execute', command, cwd: h.ws }, mode, {
    filesystem: h.session.filesystem,
    gitConfig: gitConfigReader(h.session.processes, h.session.environment),
    bashReader: bashReader(h.session.processes, h.session.environment),
  });
}

/** A person's yes, for running what the policy would ask about. */
export const APPROVED: PermissionDecision = { verdict: 'ask', reason: 'approved by the test', rule: 'ask', approved: true };

const bash = builtinTools().find((tool) => tool.definition.name === bashTool.name);

/** Runs the command as the toolset would after this decision. */
export async function runDecided(h: Harness, command: string, decision: PermissionDecision): Promise<BashData> {
  if (bash === undefined) throw new Error('no bash tool');
  const active = new TurnScope().startCall({ callId: 'test', timeoutMs: 20_000 });
  try {
    const prepared = bash.prepare(h.session, { command }, 'test');
    if (!('run' in prepared)) throw new Error(prepared.output);
    const result = await prepared.run(active.context, decision);
    if (result.status !== 'ok') throw new Error(result.output);
    return result.data as BashData;
  } finally {
    active.end();
  }
}
