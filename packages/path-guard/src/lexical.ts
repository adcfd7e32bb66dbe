import { posix } from 'node:path';
import { ToolError } from '@openwork/tool-contract';

const MAX_COMPONENT_BYTES = 255;
const MAX_PATH_BYTES = 4096;

/** docs/design.md §8 step 1–2: refuse what is not a plain path, then normalize lexically. */
export function lexicalAbsolute(input: unknown, workingDirectory: string): string {
  if (typeof input !== 'string' || input.trim() === '') throw new ToolError('invalid_input', 'the path is empty; give a path relative to the working directory or an absolute one');
  if (input.includes('\0')) throw new ToolError('invalid_input', 'the path contains a NUL byte; give a plain path');
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(input)) throw new ToolError('invalid_input', `${JSON.stringify(input)} is a URL; give a file path, not a URL`);
  if (input === '~' || input.startsWith('~/')) throw new ToolError('invalid_input', `${JSON.stringify(input)} uses ~, which is not expanded; give an absolute path or one relative to the working directory`);
  const absolute = posix.resolve(workingDirectory, input);
  if (Buffer.byteLength(absolute) > MAX_PATH_BYTES) throw new ToolError('name_too_long', `the path is longer than ${MAX_PATH_BYTES} bytes`);
  for (const component of components(absolute)) {
    if (Buffer.byteLength(component) > MAX_COMPONENT_BYTES) {
      throw new ToolError('name_too_long', `a path component is longer than ${MAX_COMPONENT_BYTES} bytes: ${component.slice(0, 40)}…`);
    }
  }
  return absolute;
}

export function components(absolute: string): string[] {
  return absolute.split('/').filter((part) => part !== '');
}

/** Containment by components, never by string prefix (`/w/ws-evil` is not in `/w/ws`). */
export function isInside(path: string, root: string): boolean {
  if (root === '/') return true;
  return path === root || path.startsWith(`${root}/`);
}

/** A root, a path inside one, or a directory that holds one or the working directory's name: where a resolution's walk may look. */
export function onTheWay(path: string, roots: readonly string[], workingDirectory: string): boolean {
  return isInside(workingDirectory, path) || roots.some((root) => isInside(path, root) || isInside(root, path));
}
