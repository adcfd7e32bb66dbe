import { isToolError } from '@openwork/tool-contract';
import type { PermissionDecision, ToolEffect } from '@openwork/tool-contract';
import type { PathGuard } from '@openwork/path-guard';
import type { CommandClassifier, PermissionMode } from './classifier/index.ts';

/**
 * The permission verdict for one bash command (seed §8): allow when the
 * classifier accepts it and, for the filesystem gate, when every path it
 * touches is inside a writable root; ask otherwise, with the reason.
 */
export async function decideBashCommand(
  classifier: CommandClassifier,
  paths: PathGuard,
  effect: Extract<ToolEffect, { kind: 'execute' }>,
  mode: PermissionMode,
  options: { signal?: AbortSignal } = {},
): Promise<PermissionDecision> {
  const classification = classifier.classify(effect.command, { mode });
  if (classification.verdict === 'ask') return { verdict: 'ask', reason: `bash runs ${JSON.stringify(effect.command)}: ${classification.reason}`, rule: 'ask' };
  for (const path of classification.writePaths) {
    try {
      const checked = await paths.resolvePath(path, 'write', 'may_create', options);
      if (classification.recursivePaths.includes(path) && paths.coversRoot(checked)) {
        return { verdict: 'ask', reason: `bash runs ${JSON.stringify(effect.command)}: rm -r on ${path} would remove a root`, rule: 'ask' };
      }
    } catch (error) {
      if (!isToolError(error)) throw error;
      return { verdict: 'ask', reason: `bash runs ${JSON.stringify(effect.command)}: ${path} is not inside a writable root (${error.kind})`, rule: 'ask' };
    }
  }
  return { verdict: 'allow', reason: classification.reason, rule: classification.rule };
}
