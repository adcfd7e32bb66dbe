import { describe, expect, it } from 'vitest';
import { mutationScore, TARGETS } from '../mutation.ts';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const mutants = (...statuses: string[]) => statuses.map((status) => ({ status }));

describe('the mutation score', () => {
  it('is killed and timed out over every mutant that ran or had no test, as Stryker counts it', () => {
    const score = mutationScore({ files: { 'a.ts': { mutants: mutants('Killed', 'Killed', 'Survived', 'Timeout') }, 'b.ts': { mutants: mutants('NoCoverage', 'CompileError', 'Ignored', 'Killed') } } });
    expect(score).toEqual({ killed: 3, survived: 1, noCoverage: 1, timedOut: 1, errors: 1, percent: (100 * 4) / 6 });
  });

  it('names a Stryker config that exists for every target', () => {
    for (const target of TARGETS) expect(existsSync(fileURLToPath(new URL(`../../../${target.directory}/${target.config}`, import.meta.url)))).toBe(true);
  });
});
