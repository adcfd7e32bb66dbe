import { constants } from 'node:fs';
import { access, readFile, writeFile } from 'node:fs/promises';

/** The text of a cgroup file, or undefined when it cannot be read (the cgroup is gone, or the file does not exist here). */
export async function readCgroupFile(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Writes one value to a cgroup file; the error is returned, not thrown, so the caller can say what failed. */
export async function writeCgroupFile(path: string, value: string): Promise<Error | undefined> {
  try {
    await writeFile(path, value);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** Writes one value to a cgroup file, throwing an Error that names the file and value when it fails. */
export async function mustWrite(path: string, value: string): Promise<void> {
  const error = await writeCgroupFile(path, value);
  if (error) throw new Error(`writing ${value} to ${path} failed: ${describeError(error)}`, { cause: error });
}

/** The pids listed in a `cgroup.procs` file; empty when the cgroup is gone. */
export async function readPids(procsFile: string): Promise<number[]> {
  return parsePids((await readCgroupFile(procsFile)) ?? '');
}

export function parsePids(text: string): number[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map(Number)
    .filter((pid) => Number.isSafeInteger(pid) && pid > 0);
}

/** A counter from a flat-keyed cgroup file such as `pids.events` (`max 3`) or `memory.events`. */
export async function readCounter(path: string, key: string): Promise<number> {
  return counterIn((await readCgroupFile(path)) ?? '', key);
}

export function counterIn(text: string, key: string): number {
  for (const line of text.split('\n')) {
    const [name, value] = line.trim().split(/\s+/);
    if (name === key) return Number(value) || 0;
  }
  return 0;
}

export async function isWritable(path: string): Promise<boolean> {
  try {
    await access(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

export async function exists(path: string): Promise<boolean> {
  try {
    await access(path, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}

export function describeError(error: unknown): string {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
