import type { TreeSearchMode } from '@openwork/fs-backend';
import { defineTool, safeProgress } from '@openwork/tool-contract';
import Type from 'typebox';
import { descriptions } from '../descriptions.generated.ts';
import type { BuiltinSession } from '../session.ts';
import { searchIgnore } from '../search/ignore-context.ts';
import { progressReporter } from '../search/progress.ts';
import { formatGrep, type GrepFindings } from './format.ts';
import { GrepOutput } from '../shared/output-schemas.ts';

export const GrepInput = Type.Object({
  pattern: Type.String({ minLength: 1, description: 'Regular expression (RE2 syntax) searched for in each line.' }),
  path: Type.Optional(Type.String({ description: 'File or directory to search; default: the working directory.' })),
  glob: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        "Only files matching this glob, as ripgrep's -g: without a `/` it matches a name at any depth (`*.ts`), with one the path relative to `path` (`src/**/*.ts`); a leading `!` leaves out what matches (`!dist/`).",
    }),
  ),
  mode: Type.Optional(
    Type.Union([Type.Literal('content'), Type.Literal('files_with_matches'), Type.Literal('count')], {
      description: '`files_with_matches` (default): the files; `content`: the matching lines; `count`: matching lines per file.',
    }),
  ),
  caseInsensitive: Type.Optional(Type.Boolean({ description: 'Match regardless of case; default false.' })),
  context: Type.Optional(Type.Integer({ minimum: 0, maximum: 20, description: 'content mode: lines shown before and after each match, 0–20; default 0.' })),
  maxResults: Type.Optional(
    Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Most results (lines in content mode, files otherwise); default 100.' }),
  ),
  includeIgnored: Type.Optional(Type.Boolean({ description: 'Also search files that .gitignore / .ignore exclude; .git/ is never searched. Default false.' })),
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
  /** With `context`: the lines just before and after, as far as the file goes. */
  readonly before?: readonly GrepLine[];
  readonly after?: readonly GrepLine[];
}

export interface GrepSkipped {
  readonly binary: number;
  readonly tooLarge: number;
  readonly unreadable: number;
}

export type GrepData =
  | { readonly matches: readonly GrepMatch[]; readonly truncated: boolean; readonly skipped: GrepSkipped }
  | { readonly files: readonly string[]; readonly truncated: boolean; readonly skipped: GrepSkipped }
  | { readonly counts: readonly { readonly path: string; readonly count: number }[]; readonly truncated: boolean; readonly skipped: GrepSkipped };

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
    const maxResults = Math.min(input.maxResults ?? 100, session.limits.maxContentBytes);
    const includeIgnored = input.includeIgnored ?? false;
    const root = await session.paths.resolvePath(input.path ?? '.', 'read', 'must_exist', { signal: call.signal });
    const lookup = { paths: session.paths, filesystem: session.filesystem, environment: session.environment, signal: call.signal };
    const progress = progressReporter(safeProgress(call.progress));
    // The walk, the matching and the bound run in the file system, where the bytes are (docs/decisions/0012); this tool shapes the call and the answer.
    const found = await session.filesystem.searchTree(
      root,
      {
        mode: MODES[mode],
        pattern: { source: input.pattern, caseInsensitive: input.caseInsensitive ?? false },
        context: mode === 'content' ? (input.context ?? 0) : 0,
        ...(input.glob === undefined ? {} : { filter: { syntax: 'override', pattern: input.glob } }),
        ...(includeIgnored ? {} : { ignore: await searchIgnore(lookup, root) }),
        maxResults,
        // And no more than the output limit can show: the text of a million matches is never held.
        maxResultBytes: session.limits.maxContentBytes,
        maxLineChars: session.limits.maxLineChars,
        maxFileBytes: session.limits.maxSearchFileBytes,
        binarySniffBytes: BINARY_SNIFF_BYTES,
      },
      { guard: session.paths, signal: call.signal, onProgress: progress },
    );
    const findings: GrepFindings = {
      mode,
      pattern: input.pattern,
      root: root.displayPath,
      truncated: found.truncated,
      skipped: found.skipped,
      ignored: found.ignored,
      matches: found.hits.flatMap((hit) => (hit.match === undefined ? [] : [{ path: hit.path, ...hit.match }])),
      files: found.hits.map((hit) => hit.path),
      counts: found.hits.map((hit) => ({ path: hit.path, count: hit.count ?? 0 })),
    };
    return formatGrep(findings, session.limits);
  },
});
