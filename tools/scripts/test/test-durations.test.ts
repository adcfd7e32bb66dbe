import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeDurations, readDurations, slowestLines } from '../test-durations.ts';

const folder = mkdtempSync(join(tmpdir(), 'test-durations-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('the slowest test files at the end of pnpm test', () => {
  it('are read from every package and listed slowest first, at most the count asked', () => {
    writeFileSync(join(folder, 'cli.json'), JSON.stringify([{ file: 'packages/cli/test/a.test.ts', durationMs: 1500 }, { file: 'packages/cli/test/b.test.ts', durationMs: 120_000 }]));
    writeFileSync(join(folder, 'fs-backend.json'), JSON.stringify([{ file: 'packages/fs-backend/test/c.test.ts', durationMs: 9000 }]));
    writeFileSync(join(folder, 'notes.txt'), 'not a package');
    expect(slowestLines(readDurations(folder), 2)).toEqual(['120.0 s  packages/cli/test/b.test.ts', '  9.0 s  packages/fs-backend/test/c.test.ts']);
  });

  it('are none before any package has run', () => {
    expect(readDurations(join(folder, 'missing'))).toEqual([]);
  });

  it('a run of some files replaces their figures and keeps those of the others that still exist', () => {
    const earlier = [
      { file: 'tools/scripts/test/test-durations.test.ts', durationMs: 5 },
      { file: 'tools/scripts/test/publish-guard.test.ts', durationMs: 700 },
      { file: 'tools/scripts/test/removed-long-ago.test.ts', durationMs: 9000 },
    ];
    expect(mergeDurations(earlier, [{ file: 'tools/scripts/test/test-durations.test.ts', durationMs: 40 }])).toEqual([
      { file: 'tools/scripts/test/publish-guard.test.ts', durationMs: 700 },
      { file: 'tools/scripts/test/test-durations.test.ts', durationMs: 40 },
    ]);
  });
});
