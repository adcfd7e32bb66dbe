import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AsyncFileSystem } from '@openwork/fs-backend';
import type { TreeSearchProgress } from '@openwork/tree-search';
import { MemoryFileSystem } from '@openwork/fs-backend/memory';
import { NodeFileSystem } from '@openwork/fs-backend/node';
import { PathGuard } from '@openwork/path-guard';
import { PipeProcessBackend } from '@openwork/process-backend/pipe';
import { TurnScope, type DynTool, type ToolProgress, type ToolResult } from '@openwork/tool-contract';
import { builtinTools, DEFAULT_LIMITS, ReadLedger, type BuiltinSession, type ToolLimits } from '../src/index.ts';

/** A tree to search, built the same way on the Node and the in-memory file system. */
export interface SearchWorld {
  /** Absolute: the working directory. */
  readonly ws: string;
  /** Absolute: a directory beside the working directory, outside every root. */
  readonly outside: string;
  file(relativePath: string, content: string | Uint8Array): Promise<void>;
  directory(relativePath: string): Promise<void>;
  /** A symlink at `relativePath` (under ws) with this raw target. */
  symlink(relativePath: string, target: string): Promise<void>;
  /** Makes a file fail to open with EACCES, where the file system can (the memory one; root ignores modes on Node). */
  readonly denyRead?: (relativePath: string) => void;
  session(options?: { limits?: Partial<ToolLimits>; wrap?: (filesystem: AsyncFileSystem) => AsyncFileSystem; environment?: Record<string, string> }): Promise<BuiltinSession>;
  cleanup(): Promise<void>;
}

const tools = new Map<string, DynTool<BuiltinSession>>(builtinTools().map((tool) => [tool.definition.name, tool]));

/** One call, as the toolset would run it; `scope` lets a test cancel it. */
export async function callTool(
  session: BuiltinSession,
  name: string,
  input: unknown,
  options: { scope?: TurnScope; timeoutMs?: number; progress?: (event: ToolProgress) => void } = {},
): Promise<ToolResult> {
  const tool = tools.get(name);
  if (!tool) throw new Error(`no tool ${name}`);
  const active = (options.scope ?? new TurnScope()).startCall({
    callId: 'test',
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.progress === undefined ? {} : { progress: options.progress }),
  });
  try {
    const prepared = tool.prepare(session, input, 'test');
    return 'run' in prepared ? await prepared.run(active.context) : prepared;
  } finally {
    active.end();
  }
}

async function sessionFor(ws: string, filesystem: AsyncFileSystem, limits: Partial<ToolLimits> = {}, environment: Record<string, string> = {}): Promise<BuiltinSession> {
  return {
    workingDirectory: ws,
    environment: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...environment },
    paths: await PathGuard.create({ workingDirectory: ws, probe: filesystem }),
    filesystem,
    processes: new PipeProcessBackend(),
    limits: { ...DEFAULT_LIMITS, ...limits },
    readLedger: new ReadLedger(),
  };
}

export async function nodeWorld(): Promise<SearchWorld> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'search-')));
  const ws = join(root, 'ws');
  const outside = join(root, 'outside');
  await mkdir(ws);
  await mkdir(outside);
  const filesystem = new NodeFileSystem();
  return {
    ws,
    outside,
    async file(relativePath, content) {
      const path = join(ws, relativePath);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content);
    },
    async directory(relativePath) {
      await mkdir(join(ws, relativePath), { recursive: true });
    },
    async symlink(relativePath, target) {
      const path = join(ws, relativePath);
      await mkdir(dirname(path), { recursive: true });
      await symlink(target, path);
    },
    session: (options = {}) => sessionFor(ws, options.wrap ? options.wrap(filesystem) : filesystem, options.limits, options.environment),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

export function memoryWorld(): Promise<SearchWorld> {
  const ws = '/home/user/ws';
  const outside = '/home/user/outside';
  const filesystem = new MemoryFileSystem({ directories: [ws, outside] });
  return Promise.resolve({
    ws,
    outside,
    file(relativePath, content) {
      filesystem.seedFile(join(ws, relativePath), content);
      return Promise.resolve();
    },
    directory(relativePath) {
      filesystem.seedDirectory(join(ws, relativePath));
      return Promise.resolve();
    },
    symlink(relativePath, target) {
      filesystem.seedSymlink(join(ws, relativePath), target);
      return Promise.resolve();
    },
    denyRead: (relativePath) => filesystem.injectFault(join(ws, relativePath), 'open', 'EACCES'),
    session: (options = {}) => sessionFor(ws, options.wrap ? options.wrap(filesystem) : filesystem, options.limits, options.environment),
    cleanup: () => Promise.resolve(),
  });
}

/**
 * The same file system, with a hook run before each file read, single or
 * batched, and for each file a tree search reports as it goes (to cancel in
 * the middle of a walk); and one per directory listed, in a batch or by a
 * tree search.
 */
export function withReadHook(filesystem: AsyncFileSystem, beforeRead: () => void, onList?: () => void): AsyncFileSystem {
  return new Proxy(filesystem, {
    get(target, key) {
      if (key === 'searchTree') {
        return (...[root, request, options]: Parameters<AsyncFileSystem['searchTree']>) => {
          let files = 0;
          let directories = 0;
          const onProgress = (progress: TreeSearchProgress) => {
            for (; files < progress.files; files += 1) beforeRead();
            for (; directories < progress.directories; directories += 1) onList?.();
            options.onProgress?.(progress);
          };
          return target.searchTree(root, request, { ...options, onProgress });
        };
      }
      if (key === 'readFile') {
        return (...args: Parameters<AsyncFileSystem['readFile']>) => {
          beforeRead();
          return target.readFile(...args);
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
