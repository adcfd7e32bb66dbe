import type { PathGuard } from '@openwork/path-guard';
import { isToolError } from '@openwork/tool-contract';
import { SETTINGS_DIRECTORY } from './settings.ts';

/** Directories where a write changes what runs: git's hooks and configuration, and the allow rules. */
const PROTECTED: readonly { readonly name: string; readonly why: string }[] = [
  { name: '.git', why: 'where a change alters what git runs (hooks, configuration)' },
  { name: SETTINGS_DIRECTORY, why: 'where a change alters what runs without asking (allow rules)' },
];

export interface ProtectedWrite {
  readonly path: string;
  readonly directory: string;
  readonly why: string;
}

/** The first path whose real location is inside a protected directory, wherever a symlink leads. */
export async function protectedWrite(effectPaths: readonly string[], paths: PathGuard | undefined, signal: AbortSignal): Promise<ProtectedWrite | undefined> {
  for (const path of effectPaths) {
    const named = PROTECTED.find(({ name }) => path.split('/').includes(name));
    if (named !== undefined) return { path, directory: named.name, why: named.why };
    if (paths === undefined) continue;
    try {
      const checked = await paths.resolvePath(path, 'write', 'may_create', { signal });
      const reached = PROTECTED.find(({ name }) => paths.passesThrough(checked, name));
      if (reached !== undefined) return { path, directory: reached.name, why: reached.why };
    } catch (error) {
      // The tool reports a path it cannot write with its own error.
      if (!isToolError(error)) throw error;
    }
  }
  return undefined;
}

/** The directory names, besides .git, that the bash gate keeps out of. */
export const GATE_PROTECTED_DIRECTORIES: readonly string[] = [SETTINGS_DIRECTORY];
