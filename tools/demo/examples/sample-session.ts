// What every example shares: a temp copy of ../sample, a session over it
// with the real file system and process backend, and the permission policy
// of `--mode acceptEdits` with nobody to ask.
import { cp, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinTools, DEFAULT_LIMITS, ReadLedger, type BuiltinSession } from '@openwork/builtin-tools';
import { NodeFileSystem } from '@openwork/fs-backend/node';
import { PathGuard } from '@openwork/path-guard';
import { askNobody, authorizer, sessionPolicy } from '@openwork/permission-policy';
import { PipeProcessBackend } from '@openwork/process-backend/pipe';
import { Registry, type Authorize, type FinalizedToolset, type ToolSelection } from '@openwork/toolset-finalizer';

export interface SampleSession {
  /** The temp copy of the sample project, canonical (no symlink on the way). */
  readonly workspace: string;
  readonly session: BuiltinSession;
  readonly toolset: FinalizedToolset<BuiltinSession>;
  /** Ends the session: stops any process left and removes the temp copy. */
  readonly close: () => Promise<void>;
}

/** A session over a fresh copy of tools/demo/sample. */
export async function openSampleSession(selection: ToolSelection = {}): Promise<SampleSession> {
  const workspace = await realpath(await mkdtemp(join(tmpdir(), 'openwork-example-')));
  await cp(fileURLToPath(new URL('../sample/', import.meta.url)), workspace, { recursive: true });
  const filesystem = new NodeFileSystem();
  const session: BuiltinSession = {
    workingDirectory: workspace,
    environment: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: workspace },
    paths: await PathGuard.create({ workingDirectory: workspace, probe: filesystem }),
    filesystem,
    processes: new PipeProcessBackend(),
    limits: DEFAULT_LIMITS,
    readLedger: new ReadLedger(),
  };
  const registry = new Registry<BuiltinSession>();
  for (const tool of builtinTools()) registry.register(tool);
  const toolset = registry.finalize(session, selection);
  const close = async () => {
    await session.processes.dispose();
    await rm(workspace, { recursive: true, force: true });
  };
  return { workspace, session, toolset, close };
}

/**
 * Reads, writes and edits run; bash runs when the read-only whitelist or the
 * filesystem-command gate accepts the command. Anything that would ask a
 * person is refused, since an example has nobody to ask.
 */
export function acceptEditsPolicy(session: BuiltinSession): Authorize {
  return authorizer({ mode: 'acceptEdits', ...sessionPolicy(session), ask: askNobody, unansweredNote: 'an example has nobody to ask' });
}
