import type { TreeSearchMode } from '@openwork/tree-search';
import { defineTool, safeProgress, ToolError } from '@openwork/tool-contract';
import Type from 'typebox';
import { descriptions } from '../descriptions.generated.ts';
import type { BuiltinSession } from '../session.ts';
import { searchIgnore } from '@openwork/tree-search';
import { progressReporter } from '../search/progress.ts';
import { FILE_TYPE_NAMES, fileTypeGlobs } from './file-types.ts';
import { formatGrep, type GrepFindings } from './format.ts';
import { GrepOutput } from '../common/output-schemas.ts';

/** Results of one call when `maxResults` is not given. */
export const DEFAULT_MAX_RESULTS = 100;

export const GrepInput = Type.Object({
  pattern: Type.String({ minLength: 1 }),
  path: Type.Optional(Type.String({ description: 'Default: the working directory.' })),
  glob: Type.Optional(
    Type.String({ minLength: 1 }),
  ),
  mode: Type.Optional(
    Type.Union([Type.Literal('content'), Type.Literal('files_with_matches'), Type.Literal('count')], {
      description: 'Default files_with_matches.',
    }),
  ),
  type: Type.Optional(
    Type.String({ minLength: 1 }),
  ),
  caseInsensitive: Type.Optional(Type.Boolean()),
  literal: Type.Optional(Type.Boolean()),
  multiline: Type.Optional(
    Type.Boolean(),
  ),
  context: Type.Optional(Type.Integer({ minimum: 0, maximum: 20, description: 'Lines around each match; default 0.' })),
  before: Type.Optional(Type.Integer({ minimum: 0, maximum: 20 })),
  after: Type.Optional(Type.Integer({ minimum: 0, maximum: 20 })),
  maxResults: Type.Optional(
    Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: `Lines in content mode, else files; default ${DEFAULT_MAX_RESULTS}.` }),
  ),
  offset: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'Results to skip; default 0.',
    }),
  ),
  includeIgnored: Type.Optional(Type.Boolean({ description: 'Search ignored files too.' })),
});

export type GrepMode = 'content' | 'files_with_matches' | 'count';

export interface GrepLine {
  readonly line: number;
  readonly text: string;
}

export interface GrepMatch {
  readonly path: string;
  /** 1-based. */
  readonly line: number;
  readonly text: string;
  /** With `context`, `before` or `after`: the lines just before and after, as far as the file goes. */
  readonly before?: readonly GrepLine[];
  readonly after?: readonly GrepLine[];
  /** multiline: the last line of the match, when it ends on a later line than `line`. */
  readonly endLine?: number;
  /** multiline: the match's lines after the first, up to endLine, or fewer when the match covers more than 64 KiB (`spanBytes`). */
  readonly lines?: readonly GrepLine[];
  /** multiline: the bytes the match's lines cover, when more than the 64 KiB that is shown. */
  readonly spanBytes?: number;
}

/** Paging: where this page starts, and where the next one does when more results exist. */
export interface GrepPaging {
  /** Present when the call gave an offset above 0. */
  readonly offset?: number;
  /** Present when more results exist: the offset of the next page. */
  readonly nextOffset?: number;
  /** Present when the offset is past the end: how many results the whole set has. */
  readonly total?: number;
}

export interface GrepSkipped {
  readonly binary: number;
  readonly tooLarge: number;
  readonly unreadable: number;
}

export type GrepData =
  | ({ readonly matches: readonly GrepMatch[]; readonly truncated: boolean; readonly skipped: GrepSkipped } & GrepPaging)
  | ({ readonly files: readonly string[]; readonly truncated: boolean; readonly skipped: GrepSkipped } & GrepPaging)
  | ({ readonly counts: readonly { readonly path: string; readonly count: number }[]; readonly truncated: boolean; readonly skipped: GrepSkipped } & GrepPaging);

/** Binary detection as git and ripgrep do it: a NUL in the first 8 KiB. */
const BINARY_SNIFF_BYTES = 8 * 1024;

const MODES: Record<GrepMode, TreeSearchMode> = { content: 'content', files_with_matches: 'files', count: 'count' };

export const grepTool = defineTool({
  id: 'filesystem/grep',
  name: 'grep',
  description: descriptions.grep,
  risk: 'read',
  input: GrepInput,
  output: GrepOutput,
  effect: (input) => ({ kind: 'read', paths: [input.path ?? '.'] }),
  execute: async (session: BuiltinSession, call, input) => {
    const mode: GrepMode = input.mode ?? 'files_with_matches';
    // Every result takes at least a byte and a newline of output, so more than maxContentBytes never fit: a larger bound changes nothing.
    const maxResults = Math.min(input.maxResults ?? DEFAULT_MAX_RESULTS, session.limits.maxContentBytes);
    const offset = input.offset ?? 0;
    const nameGlobs = input.type === undefined ? undefined : fileTypeGlobs(input.type);
    if (input.type !== undefined && nameGlobs === undefined) {
      throw new ToolError('invalid_input', `unknown type ${JSON.stringify(input.type)}; give one of ripgrep's type names: ${FILE_TYPE_NAMES.join(', ')}; or use glob (such as "*.ext") instead`);
    }
    const includeIgnored = input.includeIgnored ?? false;
    const root = await session.paths.resolvePath(input.path ?? '.', 'read', 'must_exist', { signal: call.signal });
    const lookup = { paths: session.paths, filesystem: session.filesystem, environment: session.environment, signal: call.signal };
    const progress = progressReporter(safeProgress(call.progress));
    // The walk, the matching and the bound run in the file system, where the bytes are (docs/decisions/0012); this tool shapes the call and the answer.
    const found = await session.filesystem.searchTree(
      root,
      {
        mode: MODES[mode],
        pattern: { source: input.pattern, caseInsensitive: input.caseInsensitive ?? false, literal: input.literal ?? false, multiline: input.multiline ?? false },
        context: mode === 'content' ? (input.context ?? 0) : 0,
        ...(mode === 'content' && input.before !== undefined ? { before: input.before } : {}),
        ...(mode === 'content' && input.after !== undefined ? { after: input.after } : {}),
        ...(input.glob === undefined ? {} : { filter: { syntax: 'override', pattern: input.glob } }),
        ...(nameGlobs === undefined ? {} : { nameGlobs }),
        ...(includeIgnored ? {} : { ignore: await searchIgnore(lookup, root) }),
        // A page past `offset`: the results before it are counted in sorted order and dropped unheld, so the pages agree with one another
        // and the search holds at most maxResults whatever the offset (docs/contract.md §6).
        maxResults,
        skip: offset,
        maxResultBytes: session.limits.maxContentBytes,
        maxLineChars: session.limits.maxLineChars,
        maxFileBytes: session.limits.maxSearchFileBytes,
        binarySniffBytes: BINARY_SNIFF_BYTES,
      },
      { guard: session.paths, signal: call.signal, onProgress: progress },
    );
    const page = found.hits;
    const findings: GrepFindings = {
      mode,
      pattern: input.pattern,
      root: root.displayPath,
      truncated: found.truncated,
      skipped: found.skipped,
      ignored: found.ignored,
      offset,
      found: found.skippedResults + found.hits.length,
      matches: page.flatMap((hit) => (hit.match === undefined ? [] : [{ path: hit.path, ...hit.match }])),
      files: page.map((hit) => hit.path),
      counts: page.map((hit) => ({ path: hit.path, count: hit.count ?? 0 })),
    };
    return formatGrep(findings, session.limits);
  },
});
