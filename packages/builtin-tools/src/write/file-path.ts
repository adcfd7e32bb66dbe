import { ToolError } from '@openwork/tool-contract';

/**
 * A path ending in `/` (or `/.`) names a directory by its form; the path
 * guard would normalize it to `newdir` and create a file there, which is not
 * what the caller asked for (bash refuses `> newdir/` too).
 */
export function refuseDirectoryForm(path: string): void {
  if (path.endsWith('/') || path.endsWith('/.')) {
    throw new ToolError('invalid_input', `${JSON.stringify(path)} ends with "/", so it names a directory, not a file; give the path of the file itself, e.g. ${JSON.stringify(`${path.replace(/\/\.?$/, '')}/name.txt`)}`);
  }
}
