import type { PathGuard } from '@openwork/path-guard';
import { createCommandClassifier } from './classifier/index.ts';
import type { CommandClassifier, PermissionMode } from './classifier/index.ts';
import { decideBashCommand, type BashDecisionOptions } from './permission.ts';

/** Where and how a line would run: the session's guard, the directory it starts in, the mode and what the decision may consult. */
export interface ClassifyContext extends BashDecisionOptions {
  /** The session's roots and protected paths: every read and write is checked against them. */
  readonly paths: PathGuard;
  readonly mode: PermissionMode;
  /** The directory the line starts in; default the guard's working directory. */
  readonly cwd?: string;
  /** A classifier made once and kept; default one loaded (once per process) for the call. */
  readonly classifier?: CommandClassifier;
}

/** What one command line does, and whether it may run without asking (docs/contract.md §4.3). */
export interface CommandEffects {
  /** Every program the line names, each once, in order. */
  readonly runs: readonly string[];
  /** Every path the line reads, as the programs receive them (relative to `cwd`); empty when the classifier did not understand the line. */
  readonly reads: readonly string[];
  /**
   * Every path the line writes: the filesystem gate's targets when it
   * understood the line, else the files its redirections write, as written.
   */
  readonly writes: readonly string[];
  /** True when the classifier understood the whole line, so the lists are all it reads and writes. */
  readonly understood: boolean;
  /** `allow`: it runs without asking; `ask`: a person decides (`approved` when an allow rule approved it in advance). */
  readonly verdict: 'allow' | 'ask';
  readonly approved?: boolean;
  /** Why it runs, or the exact word that made it ask and what would make it run. */
  readonly reason: string;
  /** The table entry that let it run (`read_only:grep`, `filesystem_gate:sed -i`, an allow rule), or `ask`. */
  readonly rule: string;
}

/**
 * The effects of one command line: what it reads, writes and runs, and the
 * verdict `decideBashCommand` gives it, with the reason. A thin view over the
 * classifier and the decision, for an embedder that wants both at once.
 */
export async function classify(command: string, context: ClassifyContext): Promise<CommandEffects> {
  const { paths, mode, cwd, classifier: given, ...options } = context;
  const classifier = given ?? (await createCommandClassifier());
  const decision = await decideBashCommand(classifier, paths, { kind: 'execute', command, cwd: cwd ?? paths.workingDirectory }, mode, options);
  const classification = classifier.classify(command, { mode, ...(options.allowRules === undefined ? {} : { allowRules: options.allowRules }) });
  const outline = classifier.outline(command);
  const understood = classification.verdict === 'allow' && outline.complete;
  return {
    runs: outline.programs,
    reads: understood ? [...new Set(classification.readPaths.map((read) => read.path))] : [],
    writes: understood && classification.list === 'filesystem_gate' ? [...new Set(classification.writePaths)] : outline.writes,
    understood,
    verdict: decision.verdict === 'allow' ? 'allow' : 'ask',
    ...(decision.approved === undefined ? {} : { approved: decision.approved }),
    reason: decision.reason,
    rule: decision.rule,
  };
}
