import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const demo = fileURLToPath(new URL('../run.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const command = fileURLToPath(new URL('../../../packages/cli/bin/openwork-tools.js', import.meta.url));

describe('pnpm demo', () => {
  it('runs all seven tools, bash on its own and approved, and says how to undo from its journal', async () => {
    const { stdout } = await run(tsx, [demo]);
    const workspace = /^openwork-tools demo in (\S+)$/m.exec(stdout)?.[1] ?? '';
    const journal = `${workspace}.changes.jsonl`;
    try {
      const called = [...stdout.matchAll(/^▶ (\w+) /gm)].map((match) => match[1]);
      expect(new Set(called)).toEqual(new Set(['read', 'write', 'edit', 'grep', 'glob', 'list', 'bash']));
      expect(stdout).toMatch(/✓ ok, ran on its own \(read_only:ls, read_only:grep\)/);
      expect(stdout).toMatch(/\? bash: bash runs "node -e .* Allow\? → yes/);
      expect(stdout).toContain('✓ ok, approved');
      expect(stdout).toContain(`2 file change(s) are journaled in ${journal}.`);
      const undo = /pnpm exec openwork-tools (undo --artifacts \S+ --cwd \S+)$/m.exec(stdout)?.[1]?.split(' ') ?? [];
      expect(undo).toEqual(['undo', '--artifacts', journal, '--cwd', workspace]);
      // The printed command undoes both changes: the edit is reverted and the new file removed.
      const undone = await run(process.execPath, [command, ...undo, '--json']);
      expect((JSON.parse(undone.stdout) as { undone: string[] }).undone).toHaveLength(2);
      expect(await readFile(join(workspace, 'src/greet.ts'), 'utf8')).toContain("'Hello, ' + name");
      await expect(readFile(join(workspace, 'src/farewell.ts'))).rejects.toThrow();
    } finally {
      await rm(workspace, { recursive: true, force: true });
      await rm(journal, { force: true });
    }
  }, 120_000);
});
