import { posix } from 'node:path';
import { PathGuard } from '@openwork/path-guard';
import { isToolError } from '@openwork/tool-contract';
import { parseExcludesFile, stopsTheCall } from './repository-config.ts';
import type { SearchConfigFiles } from './config-files.ts';

/** The global excludes file and git's own config files are small; a larger one is not read. */
const MAX_CONFIG_BYTES = 1024 * 1024;
const decoder = new TextDecoder('utf-8');

export interface GlobalExcludesLookup {
  readonly filesystem: SearchConfigFiles;
  /** The session's environment: HOME and XDG_CONFIG_HOME say where git's user files are. */
  readonly environment: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
}

/**
 * A file of the user's git configuration, which lives outside the session's
 * roots: read through a guard whose only root is its own directory, so it
 * still goes through a CheckedPath and the file system's checks (O_NOFOLLOW,
 * a regular file, bounded). Its text only ever decides which files a search
 * skips; none of it is shown.
 */
async function readConfigFile(lookup: GlobalExcludesLookup, absolutePath: string): Promise<string | undefined> {
  try {
    const guard = await PathGuard.create({ workingDirectory: posix.dirname(absolutePath), probe: lookup.filesystem });
    const path = await guard.resolvePath(posix.basename(absolutePath), 'read', 'must_exist', { signal: lookup.signal });
    if (path.kind !== 'file') return undefined;
    return decoder.decode(await lookup.filesystem.readFile(path, { maxBytes: MAX_CONFIG_BYTES, signal: lookup.signal }));
  } catch (error) {
    if (isToolError(error) && stopsTheCall(error.kind)) throw error;
    // Missing, unreadable, or its directory does not exist: no rules from it.
    return undefined;
  }
}

function expandHome(path: string, home: string | undefined): string | undefined {
  if (path === '~' || path.startsWith('~/')) return home === undefined ? undefined : posix.join(home, path.slice(1));
  return posix.isAbsolute(path) ? path : home === undefined ? undefined : posix.join(home, path);
}

/**
 * The rules of the global excludes file, as ripgrep finds it: git's
 * `core.excludesFile` (the repository's config, then `~/.gitconfig`, then
 * `$XDG_CONFIG_HOME/git/config`, the first that sets it; `$GIT_CONFIG_GLOBAL`
 * in place of those two when set), else
 * `$XDG_CONFIG_HOME/git/ignore` (`~/.config/git/ignore`). Undefined when
 * there is none.
 */
export async function globalExcludes(lookup: GlobalExcludesLookup, repositoryConfig: string | undefined): Promise<string | undefined> {
  const home = lookup.environment.HOME;
  const xdgConfig = lookup.environment.XDG_CONFIG_HOME ?? (home === undefined ? undefined : posix.join(home, '.config'));
  let named = repositoryConfig === undefined ? undefined : parseExcludesFile(repositoryConfig);
  // GIT_CONFIG_GLOBAL names git's global config file in place of ~/.gitconfig and the XDG one, as git reads it.
  const globalFile = lookup.environment.GIT_CONFIG_GLOBAL;
  const userFiles = globalFile !== undefined && globalFile !== '' ? [globalFile] : [home === undefined ? undefined : posix.join(home, '.gitconfig'), xdgConfig === undefined ? undefined : posix.join(xdgConfig, 'git', 'config')];
  for (const file of userFiles) {
    if (named !== undefined || file === undefined || !posix.isAbsolute(file)) continue;
    const text = await readConfigFile(lookup, file);
    named = text === undefined ? undefined : parseExcludesFile(text);
  }
  const path = named !== undefined ? expandHome(named, home) : xdgConfig === undefined ? undefined : posix.join(xdgConfig, 'git', 'ignore');
  if (path === undefined || !posix.isAbsolute(path)) return undefined;
  return readConfigFile(lookup, path);
}
