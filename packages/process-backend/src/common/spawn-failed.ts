import { ToolError } from '@openwork/tool-contract';
import type { SpawnRequest } from '../process-backend.ts';

/** The error for a command that could not start, with what to check next. */
export function spawnFailed(request: SpawnRequest, reason: string, cause?: unknown): ToolError {
  const program = request.argv[0] ?? '';
  return new ToolError(
    'spawn_failed',
    `Could not start ${JSON.stringify(program)} in ${request.cwd}: ${reason}. Check that the program exists on PATH and that the working directory exists.`,
    { cause },
  );
}
