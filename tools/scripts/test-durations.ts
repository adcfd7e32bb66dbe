// The time each test file takes, kept per package after its vitest run, so
// that `pnpm test` can end by naming the slowest files of the whole
// workspace: a contributor sees at once where the suite's minutes go.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reporter, TestModule } from 'vitest/node';

const workspace = fileURLToPath(new URL('../../', import.meta.url));
/** Where each package's durations are kept; nothing in it is committed. */
export const DURATIONS_FOLDER = join(workspace, 'node_modules', '.cache', 'test-durations');

/** One test file and the milliseconds its run took, as vitest counts them. */
export interface FileDuration {
  readonly file: string;
  readonly durationMs: number;
}

/** The `count` slowest files, slowest first, as lines to print. */
export function slowestLines(files: readonly FileDuration[], count: number): string[] {
  const slowest = [...files].sort((a, b) => b.durationMs - a.durationMs).slice(0, count);
  const width = Math.max(0, ...slowest.map((entry) => (entry.durationMs / 1000).toFixed(1).length));
  return slowest.map((entry) => `${(entry.durationMs / 1000).toFixed(1).padStart(width)} s  ${entry.file}`);
}

/** A vitest reporter that writes the package's file durations where slowest-tests.ts reads them. */
export class DurationsReporter implements Reporter {
  private root = process.cwd();

  onInit(vitest: { config: { root: string } }): void {
    this.root = vitest.config.root;
  }

  onTestRunEnd(modules: readonly TestModule[]): void {
    const ran = modules.map((module) => ({ file: relative(workspace, module.moduleId), durationMs: Math.round(module.diagnostic().duration) }));
    const kept = join(DURATIONS_FOLDER, `${basename(this.root)}.json`);
    mkdirSync(DURATIONS_FOLDER, { recursive: true });
    writeFileSync(kept, `${JSON.stringify(mergeDurations(readDurationsFile(kept), ran))}\n`);
  }
}

/**
 * A run of some files replaces their figures and keeps the others' from an
 * earlier run; a file that no longer exists is dropped.
 */
export function mergeDurations(earlier: readonly FileDuration[], ran: readonly FileDuration[]): FileDuration[] {
  const fresh = new Set(ran.map((entry) => entry.file));
  return [...earlier.filter((entry) => !fresh.has(entry.file) && existsSync(join(workspace, entry.file))), ...ran];
}

function readDurationsFile(file: string): FileDuration[] {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as FileDuration[];
  } catch {
    return [];
  }
}

/** Every package's file durations, from its last run of each file. */
export function readDurations(folder: string = DURATIONS_FOLDER): FileDuration[] {
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  return names.flatMap((name) => readDurationsFile(join(folder, name)));
}
