import { createCommandClassifier, decideBashCommand, quoteCommand, type BashReader, type GitConfigReader } from '@openwork/bash-classifier';
import type { AsyncFileSystem } from '@openwork/fs-backend';
import type { PathGuard } from '@openwork/path-guard';
import { backgroundReason, type PermissionDecision, type ToolEffect } from '@openwork/tool-contract';
import { allowRuleName, type AllowRule } from './allow-rules.ts';
import { denyRuleName, matchingDenyRule, type DenyRule } from './deny-rules.ts';
import type { PermissionMode } from './permission-mode.ts';
import { GATE_PROTECTED_DIRECTORIES, protectedWrite } from './protected-directory.ts';
import type { PolicyRequest } from './request.ts';

export type ExecuteEffect = Extract<ToolEffect, { kind: 'execute' }>;

export interface PolicyOptions {
  readonly mode: PermissionMode;
  /** The session's guard: the filesystem gate and the `.git` check resolve every path with it; without it every command asks. */
  readonly paths?: PathGuard;
  /** Lists the directory of a glob a read-only command reads (each symlink it may expand to is checked). */
  readonly filesystem?: AsyncFileSystem;
  /** Reads a repository's configuration before a git command runs on its own; without it git asks. */
  readonly gitConfig?: GitConfigReader;
  /** Asks bash how it reads a command line; a line runs on its own only when bash reads it as the classifier did. Without it every command asks. */
  readonly bashReader?: BashReader;
  /**
   * Command prefixes a person allowed (`bash:npm test`): a line whose every
   * simple command matches one or the read-only list is an ask they
   * approved, named by `decision.rule`.
   */
  readonly allow?: readonly AllowRule[];
  /** Rules that refuse a call whatever else would allow or approve it, `--yes` included. */
  readonly deny?: readonly DenyRule[];
  /** Decides bash commands on their own; by default the effect classifier with `paths`. */
  readonly classifyCommand?: (effect: ExecuteEffect, mode: PermissionMode) => Promise<PermissionDecision>;
}

/**
 * The verdict before anyone is asked (docs/design.md §7.1, docs/contract.md §4); nothing has
 * run yet. A command line an allow rule covers comes back as an ask already
 * approved, so that it runs as an approved command does.
 */
export async function decide(request: PolicyRequest, options: PolicyOptions): Promise<PermissionDecision> {
  const { effect } = request;
  const name = request.definition.name;
  const denied = matchingDenyRule(request, options.deny ?? []);
  if (denied !== undefined) {
    const what = effect.kind === 'execute' ? `${name} runs ${quoteCommand(effect.command)}` : `${name} was called`;
    const from = denied.source === undefined ? '' : ` in ${denied.source}`;
    return { verdict: 'deny', reason: `${what}, which the deny rule ${JSON.stringify(denied.text)}${from} refuses`, rule: denyRuleName(denied) };
  }
  switch (effect.kind) {
    case 'read':
      return { verdict: 'allow', reason: 'reading is allowed', rule: 'read' };
    case 'background':
      return { verdict: 'allow', reason: backgroundReason(name, effect.backgroundId), rule: 'background' };
    case 'write': {
      // A readOnly toolset holds no writing tool; an embedder that keeps one still gets a refusal, not a prompt.
      if (options.mode === 'readOnly') return { verdict: 'deny', reason: `${name} writes ${effect.paths.join(', ')}, and readOnly mode writes nothing`, rule: 'readOnly' };
      const guarded = await protectedWrite(effect.paths, options.paths, request.signal);
      // Approvable in every mode: the person may mean it, but a model should not change on its own what runs.
      if (guarded !== undefined) return { verdict: 'ask', reason: `${name} writes ${guarded.path}, inside ${guarded.directory}, ${guarded.why}`, rule: 'ask' };
      return options.mode === 'acceptEdits'
        ? { verdict: 'allow', reason: 'edits are accepted in acceptEdits mode', rule: 'acceptEdits:write' }
        : { verdict: 'ask', reason: `${name} writes ${effect.paths.join(', ')}`, rule: 'ask' };
    }
    case 'execute':
      if (options.mode === 'readOnly') return { verdict: 'deny', reason: `${name} runs ${quoteCommand(effect.command)}, and readOnly mode runs no program`, rule: 'readOnly' };
      // What is typed into a terminal later is never classified: neither the classifier nor an allow rule can let it run, only a person.
      if (effect.terminal === true) {
        return { verdict: 'ask', reason: `${name} runs ${quoteCommand(effect.command)} on a terminal; input written to it later with bash_write is not checked`, rule: 'ask' };
      }
      if (options.classifyCommand) return options.classifyCommand(effect, options.mode);
      if (options.paths) {
        return decideBashCommand(await createCommandClassifier(), options.paths, effect, options.mode, {
          signal: request.signal,
          ...(options.filesystem === undefined ? {} : { filesystem: options.filesystem }),
          ...(options.gitConfig === undefined ? {} : { gitConfig: options.gitConfig }),
          ...(options.bashReader === undefined ? {} : { bashReader: options.bashReader }),
          ...(options.allow === undefined ? {} : { allowRules: options.allow.map((rule) => ({ name: allowRuleName(rule), prefix: rule.prefix })) }),
          protectedDirectories: GATE_PROTECTED_DIRECTORIES,
        });
      }
      return { verdict: 'ask', reason: `bash runs ${quoteCommand(effect.command)}`, rule: 'ask' };
  }
}
