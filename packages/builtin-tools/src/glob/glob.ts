import { defineTool, safeProgress, ToolError } from '@openwork/tool-contract';
import Type from 'typebox';
import { descriptions } from '../descriptions.generated.ts';
import type { BuiltinSession } from '../session.ts';
import { BoundedSortedList } from '../search/bounded-sorted.ts';
import { globFilter } from '../search/path-filter.ts';
import { walk } from '../search/walk.ts';
import { escapeName } from '../shared/escape-name.ts';
import { compareBytes } from '../shared/text.ts';
import { GlobOutput } from '../shared/output-schemas.ts';

export const GlobInput = Type.Object({
  pattern: Type.String({
    minLength: 1,
    description: 'Glob matched against file paths relative to `path`, e.g. `**/*.ts` or `src/*.json`: `*` `**` `?` `[abc]` `{a,b}`, a backslash escapes, everything else literal.',
  }),
  path: Type.Optional(Type.String({ description: 'Directory to search from; default: the working directory.' })),
  maxResults: Type.Optional(Type.Integer({ minimum: 1, maximum: 2000, description: 'Most paths returned, 1–2000; default 200.' })),
  includeIgnored: Type.Optional(Type.Boolean({ description: 'Also list files that .gitignore / .ignore exclude; .git/ is never entered. Default false.' })),
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
    const maxResults = input.maxResults ?? 200;
    const root = await session.paths.resolvePath(input.path ?? '.', 'read', 'must_exist', { signal: call.signal });
    if (root.kind !== 'directory') {
      throw new ToolError('not_a_directory', `${escapeName(root.displayPath)} is not a directory; give glob a directory as path`);
    }
    const filter = globFilter(input.pattern);
    // One more than asked, so `truncated` means "at least one more path matches".
    const kept = new BoundedSortedList<string>({ capacity: maxResults + 1, compare: compareBytes });
    await walk({
      paths: session.paths,
      filesystem: session.filesystem,
      root,
      includeIgnored: input.includeIgnored ?? false,
      concurrency: session.limits.searchConcurrency,
      maxResults,
      progress: { send: safeProgress(call.progress), results: () => kept.items.length },
      signal: call.signal,
      includeFile: filter.includeFile,
      enterDirectory: filter.enterDirectory,
      beyondBound: (sortKey) => {
        const last = kept.last;
        return kept.full && last !== undefined && compareBytes(sortKey, last) > 0;
      },
      visitFile: (file) => {
        kept.add(file.displayPath);
      },
    });
    const paths = kept.items.slice(0, maxResults);
    const truncated = kept.items.length > maxResults;
    const lines = paths.map(escapeName);
    if (paths.length === 0) lines.push(`[no files match ${JSON.stringify(input.pattern)} under ${escapeName(root.displayPath)}]`);
    if (truncated) {
      lines.push(`[showing the first ${paths.length} paths in path order; more match. Narrow the search: a deeper path or a more specific pattern; or raise maxResults (at most 2000)]`);
    }
    return { data: { paths, truncated } satisfies GlobData, output: lines.join('\n') };
  },
});
