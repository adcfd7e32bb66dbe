import { randomUUID } from 'node:crypto';
import { lstat, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { EMPTY_USER_SETTINGS, parseUserSettings, withTrustedProject, type UserSettings } from '@openwork/permission-policy';
import { UsageError } from './usage-error.ts';

/**
 * The person's own settings file: `$OPENWORK_CONFIG_DIR/settings.json` when
 * that variable is set (tests and separate profiles use it), else
 * `$XDG_CONFIG_HOME/openwork/settings.json`, else `~/.config/openwork/settings.json`.
 */
export function userSettingsFile(environment: Readonly<Record<string, string | undefined>> = process.env): string {
  const own = environment['OPENWORK_CONFIG_DIR'];
  if (own !== undefined && own !== '') return join(own, 'settings.json');
  const xdg = environment['XDG_CONFIG_HOME'];
  // The XDG base directory specification ignores a relative path.
  const config = xdg !== undefined && isAbsolute(xdg) ? xdg : join(homedir(), '.config');
  return join(config, 'openwork', 'settings.json');
}

async function readIfThere(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The user's settings; none written is no rule at all; a file that cannot be read is a usage error naming it. */
export async function readUserSettings(file: string): Promise<UserSettings> {
  let text: string | undefined;
  try {
    text = await readIfThere(file);
  } catch (error) {
    throw new UsageError(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (text === undefined) return EMPTY_USER_SETTINGS;
  const parsed = parseUserSettings(text, file);
  if (!parsed.ok) throw new UsageError(`${file}: ${parsed.message}`);
  return parsed.settings;
}

/**
 * Records that the person trusted `directory` with the settings file of this
 * digest. The file is written whole into a new file (mode 0600, created
 * exclusively, so no symlink is followed) and renamed over the old one; a
 * settings file that is itself a symlink is left alone and the trust is not
 * recorded.
 */
export async function recordTrustedProject(file: string, directory: string, sha256: string, now: Date = new Date()): Promise<void> {
  const folder = join(file, '..');
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const existing = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing !== undefined && !existing.isFile()) throw new Error(`${file} is ${existing.isSymbolicLink() ? 'a symlink' : 'not a file'}; add the trust by hand`);
  const text = withTrustedProject(await readIfThere(file), directory, { sha256, trustedAt: now.toISOString() });
  const temporary = join(folder, `.settings.json.${randomUUID()}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
