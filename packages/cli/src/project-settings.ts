import { createHash } from 'node:crypto';
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseSettings, SETTINGS_DIRECTORY, SETTINGS_FILE, type ProjectSettings } from '@openwork/permission-policy';

/** The project's settings file as read: its rules, and the digest that trusting it records. */
export interface ProjectSettingsFile {
  readonly file: string;
  /** SHA-256 of the file's bytes, lower-case hex. */
  readonly sha256: string;
  readonly settings: ProjectSettings;
}

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
 * The project's `.openwork/settings.json`, read once when a session opens.
 * A symlink on the way is refused: the policy asks before any write into
 * `.openwork/`, but a symlink would let a write elsewhere in the project
 * change the rules.
 */
export async function readProjectSettings(workingDirectory: string): Promise<ProjectSettingsFile | undefined> {
  const directory = join(workingDirectory, SETTINGS_DIRECTORY);
  const file = join(workingDirectory, SETTINGS_FILE);
  const directoryKind = await entryKind(directory);
  if (directoryKind === 'missing') return undefined;
  if (directoryKind !== 'directory') throw new Error(`${directory} is ${directoryKind === 'symlink' ? 'a symlink' : 'not a directory'}; the settings are read only from a directory of the project itself`);
  const fileKind = await entryKind(file);
  if (fileKind === 'missing') return undefined;
  if (fileKind !== 'file') throw new Error(`${file} is ${fileKind === 'symlink' ? 'a symlink' : 'not a file'}; the settings are read only from a file of the project itself`);
  const bytes = await readFile(file);
  const parsed = parseSettings(bytes.toString('utf8'), file);
  if (!parsed.ok) throw new Error(`${file}: ${parsed.message}`);
  return { file, sha256: createHash('sha256').update(bytes).digest('hex'), settings: parsed.settings };
}
