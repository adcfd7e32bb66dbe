import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseSettings, SETTINGS_DIRECTORY, SETTINGS_FILE, type AllowRule } from '@openwork/permission-policy';

/** Whether a path exists, and is a real directory or file rather than a symlink to one. */
async function entryKind(path: string): Promise<'missing' | 'symlink' | 'directory' | 'file' | 'other'> {
  try {
    const stat = await lstat(path);
    if (stat.isSymbolicLink()) return 'symlink';
    return stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : 'other';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
}

/**
 * The allow rules of the project's `.openwork/settings.json`, read once when
 * a session opens. A symlink on the way is refused: the policy asks before
 * any write into `.openwork/`, but a symlink would let a write elsewhere in
 * the project change the rules.
 */
export async function projectAllowRules(workingDirectory: string): Promise<readonly AllowRule[]> {
  const directory = join(workingDirectory, SETTINGS_DIRECTORY);
  const file = join(workingDirectory, SETTINGS_FILE);
  const directoryKind = await entryKind(directory);
  if (directoryKind === 'missing') return [];
  if (directoryKind !== 'directory') throw new Error(`${directory} is ${directoryKind === 'symlink' ? 'a symlink' : 'not a directory'}; the settings are read only from a directory of the project itself`);
  const fileKind = await entryKind(file);
  if (fileKind === 'missing') return [];
  if (fileKind !== 'file') throw new Error(`${file} is ${fileKind === 'symlink' ? 'a symlink' : 'not a file'}; the settings are read only from a file of the project itself`);
  const parsed = parseSettings(await readFile(file, 'utf8'));
  if (!parsed.ok) throw new Error(`${file}: ${parsed.message}`);
  return parsed.settings.allow;
}

/** The rules a session decides with: the command line's `--allow`, then the project's. */
export async function allowRules(commandLine: readonly AllowRule[], workingDirectory: string): Promise<readonly AllowRule[]> {
  return [...commandLine, ...(await projectAllowRules(workingDirectory))];
}
