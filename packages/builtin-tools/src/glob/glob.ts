import { defineTool, safeProgress, ToolError } from '@openwork/tool-contract';
import Type from 'typebox';
import { descriptions } from '../descriptions.generated.ts';
import type { BuiltinSession } from '../session.ts';
import { literalUnclosedClasses, searchIgnore } from '@openwork/tree-search';
import { ignoredNote } from '../search/ignored-note.ts';
import { progressReporter } from '../search/progress.ts';
import { escapeName } from '../common/escape-name.ts';
import { GlobOutput } from '../common/output-schemas.ts';

/** Paths of one call when `maxResults` is not given. */
export const DEFAULT_MAX_PATHS = 200;

export const GlobInput = Type.Object({
  pattern: Type.String({ minLength: 1 }),
  path: Type.Optional(Type.String({ description: 'Default: the working directory.' })),
  maxResults: Type.Optional(Type.Integer({ minimum: 1, maximum: 2000, description: `Default ${DEFAULT_MAX_PATHS}.` })),
  includeIgnored: Type.Optional(Type.Boolean({ description: 'Include ignored files.' })),
});

export interface GlobData {
  readonly paths: readonly string[];
  readonly truncated: boolean;
}

export const globTool = defineTool({
  id: 'filesystem/glob',
  name: 'glob',
  description: descriptions.glob,
  risk: 'read',
  input: GlobInput,
  output: GlobOutput,
  effect: (input) => ({ kind: 'read', paths: [input.path ?? '.'] }),
  execute: async (session: BuiltinSession, call, input) => {
    const maxResults = input.maxResults ?? DEFAULT_MAX_PATHS;
    const root = await session.paths.resolvePath(input.path ?? '.', 'read', 'must_exist', { signal: call.signal });
    if (root.kind !== 'directory') {
      throw new ToolError('not_a_directory', `${escapeName(root.displayPath)} is not a directory; give glob a directory as path`);
    }
    const includeIgnored = input.includeIgnored ?? false;
    const lookup = { paths: session.paths, filesystem: session.filesystem, environment: session.environment, signal: call.signal };
    // The walk and the bound run in the file system (docs/decisions/0012): files are listed, never read.
    const found = await session.filesystem.searchTree(
      root,
      {
        mode: 'paths',
        // A `[` nothing closes is literal, as ripgrep reads it (docs/contract.md §2.3).
        filter: { syntax: 'glob', pattern: literalUnclosedClasses(input.pattern) },
        ...(includeIgnored ? {} : { ignore: await searchIgnore(lookup, root) }),
        maxResults,
        maxLineChars: session.limits.maxLineChars,
        maxFileBytes: session.limits.maxSearchFileBytes,
        binarySniffBytes: 0,
      },
      { guard: session.paths, signal: call.signal, onProgress: progressReporter(safeProgress(call.progress)) },
    );
    const paths = found.hits.map((hit) => hit.path);
    const lines = paths.map(escapeName);
    if (paths.length === 0) {
      const ignored = ignoredNote(found.ignored, 'list');
      lines.push(`[no files match ${JSON.stringify(input.pattern)} under ${escapeName(root.displayPath)}${ignored === undefined ? '' : `; ${ignored}`}]`);
    }
    if (found.truncated) {
      lines.push(`[showing the first ${paths.length} paths in path order; more match. Narrow the search: a deeper path or a more specific pattern; or raise maxResults (at most 2000)]`);
    }
    return { data: { paths, truncated: found.truncated } satisfies GlobData, output: lines.join('\n') };
  },
});
