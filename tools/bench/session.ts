import { builtinTools, DEFAULT_LIMITS, ReadLedger, type BuiltinSession } from '@openwork/builtin-tools';
import { NodeFileSystem } from '@openwork/fs-backend/node';
import { PathGuard } from '@openwork/path-guard';
import { PipeProcessBackend } from '@openwork/process-backend/pipe';
import { TurnScope, type ToolResult } from '@openwork/tool-contract';
import { Registry, type FinalizedToolset } from '@openwork/toolset-finalizer';

export interface BenchToolset {
  readonly session: BuiltinSession;
  readonly toolset: FinalizedToolset<BuiltinSession>;
  call(name: string, input: Record<string, unknown>): Promise<ToolResult>;
  dispose(): Promise<void>;
}

/** The toolset a product would build in-process, rooted at `directory`. */
export async function benchToolset(directory: string): Promise<BenchToolset> {
  const filesystem = new NodeFileSystem();
  const session: BuiltinSession = {
    workingDirectory: directory,
    environment: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: directory },
    paths: await PathGuard.create({ workingDirectory: directory, probe: filesystem }),
    filesystem,
    processes: new PipeProcessBackend(),
    limits: DEFAULT_LIMITS,
    readLedger: new ReadLedger(),
  };
  const registry = new Registry<BuiltinSession>();
  for (const tool of builtinTools()) registry.register(tool);
  const toolset = registry.finalize(session);
  const turn = new TurnScope();
  let calls = 0;
  return {
    session,
    toolset,
    async call(name, input) {
      calls += 1;
      const active = turn.startCall({ callId: `bench-${calls}` });
      try {
        return await toolset.call(name, input, active.context, { authorize: () => Promise.resolve({ verdict: 'allow', reason: 'benchmark', rule: 'bench' }) });
      } finally {
        active.end();
      }
    },
    dispose: () => session.processes.dispose(),
  };
}
