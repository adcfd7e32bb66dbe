// A TypeScript product compiled against the installed declarations of every
// entry point, with skipLibCheck off: every declaration it reaches, ours and
// our dependencies', is checked, so a type only an uninstalled package
// declares (web-tree-sitter's emscripten types, once) fails it. Left out:
// the ai-sdk subpath, which needs `ai`, its peer, which a product that
// imports it installs; and path-guard's ./backend, which only fs-backend
// opens (fs-backend's declarations reach it).
import { createCommandClassifier, type CommandClassification } from '@openwork/bash-classifier';
import { builtinTools, DEFAULT_LIMITS, ReadLedger, type BuiltinSession } from '@openwork/builtin-tools';
import { parseArgs, runCli } from '@openwork/cli';
import { NodeFileSystem } from '@openwork/fs-backend/node';
import { MemoryFileSystem } from '@openwork/fs-backend/memory';
import type { AsyncFileSystem } from '@openwork/fs-backend';
import * as fileSystemContract from '@openwork/fs-backend/contract-suite';
import { PathGuard } from '@openwork/path-guard';
import type { ProcessBackend } from '@openwork/process-backend';
import * as cgroup from '@openwork/process-backend/cgroup';
import * as processContract from '@openwork/process-backend/contract-suite';
import { PipeProcessBackend } from '@openwork/process-backend/pipe';
import { PtyProcessBackend } from '@openwork/process-backend/pty';
import { authorizer, askNobody, sessionPolicy } from '@openwork/permission-policy';
import { TurnScope, type ToolResult } from '@openwork/tool-contract';
import { Registry, runAnthropicToolUses, runOpenAiToolCalls } from '@openwork/toolset-finalizer';
import { runTreeSearch } from '@openwork/tree-search';
import * as searchWorker from '@openwork/tree-search/worker';

export async function product(workingDirectory: string): Promise<{ results: ToolResult[]; verdict: CommandClassification['verdict'] }> {
  const filesystem: AsyncFileSystem = new NodeFileSystem();
  const processes: ProcessBackend = new PipeProcessBackend();
  const paths = await PathGuard.create({ workingDirectory, probe: filesystem });
  const session: BuiltinSession = { workingDirectory: paths.workingDirectory, environment: {}, paths, filesystem, processes, limits: DEFAULT_LIMITS, readLedger: new ReadLedger() };
  const registry = new Registry<BuiltinSession>();
  for (const tool of builtinTools()) registry.register(tool);
  const toolset = registry.finalize(session, {}, { authorize: authorizer({ mode: 'default', ...sessionPolicy(session), ask: askNobody }) });
  const turn = new TurnScope();
  const active = turn.startCall({ callId: 'c1' });
  const results = [await toolset.call('read', { path: 'README.md' }, active.context)];
  active.end();
  await runAnthropicToolUses(toolset, [{ type: 'tool_use', id: 'a', name: 'list', input: {} }], { turn });
  await runOpenAiToolCalls(toolset, [{ id: 'o', type: 'function', function: { name: 'list', arguments: '{}' } }], { turn });
  const classifier = await createCommandClassifier();
  const { verdict } = classifier.classify('ls', { mode: 'default' });
  // @ts-expect-error: the declarations are checked, not `any`: a mode that does not exist does not compile.
  classifier.classify('ls', { mode: 'yolo' });
  return { results, verdict };
}

export const entryPoints = [parseArgs, runCli, MemoryFileSystem, PtyProcessBackend, runTreeSearch, fileSystemContract, cgroup, processContract, searchWorker] as const;
