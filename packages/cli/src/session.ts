import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { DEFAULT_LIMITS, ReadLedger, type BuiltinSession } from '@openwork/builtin-tools';
import { NodeFileSystem } from '@openwork/fs-backend/node';
import { PathGuard } from '@openwork/path-guard';
import { PipeProcessBackend } from '@openwork/process-backend/pipe';
import type { CliOptions } from './args.ts';
import { UsageError } from './usage-error.ts';

/** The skill root of seed §8: `~/.agents/skills` when it exists, or `--skills-root`. */
function skillsRoot(options: CliOptions): string | undefined {
  if (options.skillsRoot !== undefined) return resolve(options.skillsRoot);
  const fallback = resolve(homedir(), '.agents', 'skills');
  return existsSync(fallback) ? fallback : undefined;
}

/** Builds the session of one command: roots canonicalized once, real backends. */
export async function createSession(options: CliOptions): Promise<BuiltinSession> {
  const workingDirectory = resolve(options.cwd ?? process.cwd());
  const filesystem = new NodeFileSystem();
  const skills = skillsRoot(options);
  let paths: PathGuard;
  try {
    paths = await PathGuard.create({
      workingDirectory,
      writableRoots: options.roots.map((root) => resolve(workingDirectory, root)),
      readOnlyRoots: options.readRoots.map((root) => resolve(workingDirectory, root)),
      protectedRoots: skills ? [skills] : [],
      probe: filesystem,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const environment = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return {
    workingDirectory: paths.workingDirectory,
    environment,
    paths,
    filesystem,
    processes: new PipeProcessBackend(),
    limits: DEFAULT_LIMITS,
    readLedger: new ReadLedger(),
  };
}
