import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import type { SpawnRequest } from '../process-backend.ts';
import { spawnFailed } from './spawn-failed.ts';

/**
 * A pty child, and a command behind the cgroup shim, report a missing program
 * or working directory only as text and an exit status, so both are checked
 * before the fork, the way execvp would look the program up (the request's
 * PATH, not ours).
 */
export async function preflight(request: SpawnRequest): Promise<void> {
  const directory = await stat(request.cwd).catch(() => undefined);
  if (!directory?.isDirectory()) throw spawnFailed(request, 'the working directory does not exist or is not a directory');
  const program = request.argv[0] ?? '';
  const candidates = program.includes('/')
    ? [program.startsWith('/') ? program : `${request.cwd}/${program}`]
    : (request.env['PATH'] ?? '').split(':').map((entry) => `${entry === '' ? request.cwd : entry}/${program}`);
  for (const candidate of candidates) {
    if (await isExecutableFile(candidate)) return;
  }
  throw spawnFailed(request, 'no executable file of that name was found (ENOENT)');
}

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
