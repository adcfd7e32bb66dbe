import { isToolError } from '@openwork/tool-contract';
import type { AsyncFileSystem } from '@openwork/fs-backend';
import type { PathGuard } from '@openwork/path-guard';
import { JQ_LOADS_FILES } from './classifier/jq.ts';

/** The largest jq program file read to look for the modules it loads; a larger one asks. */
const MAX_PROGRAM_BYTES = 1024 * 1024;

/**
 * Why a jq program file (`jq -f FILE`) may make jq read outside the roots,
 * or undefined: it loads a module (`import`, `include`, `modulemeta`),
 * whose search path the program names. A file that cannot be read now
 * asks, since jq reads whatever is there when it runs.
 */
export async function checkJqPrograms(
  paths: PathGuard,
  programs: readonly string[],
  options: { readonly filesystem?: AsyncFileSystem; readonly signal?: AbortSignal },
): Promise<string | undefined> {
  if (programs.length === 0) return undefined;
  if (options.filesystem === undefined) return 'a jq program file may load modules from anywhere, and it was not read';
  const signal = options.signal === undefined ? {} : { signal: options.signal };
  for (const program of programs) {
    let text: string;
    try {
      const checked = await paths.resolvePath(program, 'read', 'must_exist', signal);
      text = new TextDecoder().decode(await options.filesystem.readFile(checked, { maxBytes: MAX_PROGRAM_BYTES, ...signal }));
    } catch (error) {
      if (!isToolError(error)) throw error;
      return `the jq program ${program} could not be read to look for the modules it loads (${error.kind})`;
    }
    const loads = JQ_LOADS_FILES.exec(text);
    if (loads !== null) return `the jq program ${program} uses ${loads[1] ?? 'import'}, which loads modules from directories the program itself can name`;
  }
  return undefined;
}
