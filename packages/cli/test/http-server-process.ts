// The built command serving MCP over HTTP as a process of its own, for the
// tests that need what only a process shows (its environment, its end, its
// sessions over real connections).
import { spawn, type ChildProcess } from 'node:child_process';
import { commandBundle } from './command.ts';

export interface HttpServerProcess {
  readonly child: ChildProcess;
  readonly url: URL;
}

/** The process environment with `extra` over it, without the unset names `spawn` refuses. */
export function serverEnvironment(extra: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries({ ...process.env, ...extra }).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** Starts `openwork-tools mcp --http 0 ARGS` and resolves with the address it prints once it serves. */
export async function startHttpServer(args: readonly string[], env: Record<string, string>, stdout: 'ignore' | 'pipe' = 'ignore'): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [commandBundle(), 'mcp', '--http', '0', ...args], { env, stdio: ['ignore', stdout, 'pipe'] });
  let stderr = '';
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const at = /serving MCP over HTTP at (\S+)/.exec(stderr)?.[1];
      if (at !== undefined) resolve(new URL(at));
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}: ${stderr}`)));
  });
  return { child, url };
}

/** Ends the server with SIGTERM, if it still runs, and waits for its exit. */
export async function stopHttpServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
