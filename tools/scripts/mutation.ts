// `pnpm mutation [name...]`: the mutation tests, one Stryker run per area in
// turn, each from its package's directory so that its vitest config applies,
// then the score of each. Not part of `pnpm test`: a run takes tens of
// minutes. Stryker mutates the files in place while it runs and puts them
// back when it ends. docs/testing.md, docs/decisions/0030-mutation-testing.md.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface MutationTarget {
  readonly name: string;
  readonly directory: string;
  readonly config: string;
}

export const TARGETS: readonly MutationTarget[] = [
  { name: 'path-guard', directory: 'packages/path-guard', config: 'stryker.config.json' },
  { name: 'undo', directory: 'packages/builtin-tools', config: 'stryker.undo.config.json' },
  { name: 'journal', directory: 'packages/cli', config: 'stryker.config.json' },
  { name: 'capture', directory: 'packages/process-backend', config: 'stryker.config.json' },
  { name: 'classifier', directory: 'packages/bash-classifier', config: 'stryker.config.json' },
];

/** A mutant as the mutation-testing-report JSON gives it. */
interface ReportMutant {
  readonly status: string;
}

export interface MutationReport {
  readonly files: Readonly<Record<string, { readonly mutants: readonly ReportMutant[] }>>;
}

export interface MutationScore {
  readonly killed: number;
  readonly survived: number;
  readonly noCoverage: number;
  readonly timedOut: number;
  readonly errors: number;
  /** Killed or timed out, over every mutant that could run; Stryker's own mutation score. */
  readonly percent: number;
}

export function mutationScore(report: MutationReport): MutationScore {
  const count = (status: string) => Object.values(report.files).reduce((sum, file) => sum + file.mutants.filter((mutant) => mutant.status === status).length, 0);
  const killed = count('Killed');
  const timedOut = count('Timeout');
  const survived = count('Survived');
  const noCoverage = count('NoCoverage');
  const errors = count('CompileError') + count('RuntimeError');
  const valid = killed + timedOut + survived + noCoverage;
  return { killed, survived, noCoverage, timedOut, errors, percent: valid === 0 ? 100 : (100 * (killed + timedOut)) / valid };
}

function main(names: readonly string[]): number {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const unknown = names.filter((name) => !TARGETS.some((target) => target.name === name));
  if (unknown.length > 0) {
    process.stderr.write(`unknown mutation target: ${unknown.join(', ')}; the targets are ${TARGETS.map((target) => target.name).join(', ')}\n`);
    return 2;
  }
  const chosen = names.length === 0 ? TARGETS : TARGETS.filter((target) => names.includes(target.name));
  const lines: string[] = [];
  let failed = false;
  for (const target of chosen) {
    process.stdout.write(`\n== mutation: ${target.name} (${target.directory})\n`);
    const run = spawnSync('pnpm', ['exec', 'stryker', 'run', target.config], { cwd: join(root, target.directory), stdio: 'inherit' });
    const reportPath = join(root, 'reports', 'mutation', target.name, 'mutation.json');
    if (run.status !== 0 || !existsSync(reportPath)) {
      failed = true;
      lines.push(`${target.name.padEnd(12)} failed to run (exit ${run.status ?? run.signal})`);
      continue;
    }
    const score = mutationScore(JSON.parse(readFileSync(reportPath, 'utf8')) as MutationReport);
    lines.push(`${target.name.padEnd(12)} ${score.percent.toFixed(2).padStart(6)}%  killed ${score.killed}, timed out ${score.timedOut}, survived ${score.survived}, no coverage ${score.noCoverage}`);
  }
  process.stdout.write(`\nmutation scores\n${lines.join('\n')}\n`);
  return failed ? 1 : 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
