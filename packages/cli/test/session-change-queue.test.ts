import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinTools, undoChanges, type BuiltinSession } from '@openwork/builtin-tools';
import { TurnScope, type FileChangeArtifact, type ToolResult } from '@openwork/tool-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseArgs } from '../src/args.ts';
import { createSession } from '../src/session.ts';

// The command's session (the one `mcp` serves concurrent calls with) has one serial
// line that write, edit and undo take: an undo racing an edit of the same file lands wholly before or
// after it, in the order they were called.

let base: string;
let ws: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'session-queue-')));
  ws = join(base, 'ws');
  await mkdir(ws);
});
afterEach(() => rm(base, { recursive: true, force: true }));

/** A tool called as the toolset does once the call is authorized. */
async function run(session: BuiltinSession, name: string, input: object): Promise<ToolResult> {
  const tool = builtinTools().find((candidate) => candidate.definition.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  const active = new TurnScope().startCall({ callId: `c-${name}` });
  try {
    const prepared = tool.prepare(session, input, `c-${name}`);
    return 'run' in prepared ? await prepared.run(active.context) : prepared;
  } finally {
    active.end();
  }
}

describe('the command session runs undo in series with its file changes (docs/design.md §10)', () => {
  it('an undo and an edit called together on the command session land in call order, every time', async () => {
    const { session, host } = await createSession(parseArgs(['call', 'edit', '--cwd', ws]));
    const path = join(ws, 'a.txt');
    try {
      for (let round = 0; round < 20; round += 1) {
        await writeFile(path, 'A\n');
        session.readLedger.forget(path);
        const first = await run(session, 'edit', { path: 'a.txt', oldText: 'A', newText: 'B' });
        expect(first.status, `round ${round}: ${first.output}`).toBe('ok');
        const artifacts = [...first.artifacts] as FileChangeArtifact[];
        const signal = new AbortController().signal;
        if (round % 2 === 0) {
          const [report, edit] = await Promise.all([undoChanges(session, artifacts, { signal }), run(session, 'edit', { path: 'a.txt', oldText: 'B', newText: 'C' })]);
          expect(report.undone, `round ${round}`).toHaveLength(1);
          expect(edit.status === 'error' && edit.error.kind, `round ${round}: ${edit.output}`).toBe('stale');
          expect(await readFile(path, 'utf8')).toBe('A\n');
        } else {
          const [edit, report] = await Promise.all([run(session, 'edit', { path: 'a.txt', oldText: 'B', newText: 'C' }), undoChanges(session, artifacts, { signal })]);
          expect(edit.status, `round ${round}: ${edit.output}`).toBe('ok');
          expect(report.conflicts, `round ${round}`).toHaveLength(1);
          expect(await readFile(path, 'utf8')).toBe('C\n');
        }
      }
    } finally {
      await host.dispose();
    }
  });
});
