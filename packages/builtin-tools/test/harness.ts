import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFileSystem } from '@openwork/fs-backend/node';
import { PathGuard } from '@openwork/path-guard';
import type { ProcessBackend } from '@openwork/process-backend';
import { PipeProcessBackend } from '@openwork/process-backend/pipe';
import { TurnScope, type DynTool, type ToolResult } from '@openwork/tool-contract';
import { builtinTools, DEFAULT_LIMITS, ReadLedger, type BuiltinSession, type ToolLimits } from '../src/index.ts';

export interface Harness {
  readonly root: string;
  readonly ws: string;
  readonly session: BuiltinSession;
  call(name: string, input: unknown, options?: { timeoutMs?: number }): Promise<ToolResult>;
  cleanup(): Promise<void>;
}

/** A real temp workspace with the Node backends, and a direct call path to each tool. */
export async function createHarness(options: { limits?: Partial<ToolLimits>; readOnlyRoots?: string[]; environment?: Record<string, string>; processes?: ProcessBackend } = {}): Promise<Harness> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'tools-')));
  const ws = join(root, 'ws');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(ws);
  const filesystem = new NodeFileSystem();
  const paths = await PathGuard.create({ workingDirectory: ws, probe: filesystem, readOnlyRoots: options.readOnlyRoots ?? [] });
  const session: BuiltinSession = {
    workingDirectory: ws,
    environment: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, ...options.environment },
    paths,
    filesystem,
    processes: options.processes ?? new PipeProcessBackend(),
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    readLedger: new ReadLedger(),
  };
  const tools = new Map<string, DynTool<BuiltinSession>>(builtinTools().map((tool) => [tool.definition.name, tool]));
  return {
    root,
    ws,
    session,
    async call(name, input, callOptions = {}) {
      const tool = tools.get(name);
      if (!tool) throw new Error(`no tool ${name}`);
      const active = new TurnScope().startCall({ callId: 'test', ...callOptions });
      try {
        const prepared = tool.prepare(session, input, 'test');
        return 'run' in prepared ? await prepared.run(active.context) : prepared;
      } finally {
        active.end();
      }
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

export function errorKind(result: ToolResult): string | undefined {
  return result.status === 'ok' ? undefined : result.error.kind;
}
