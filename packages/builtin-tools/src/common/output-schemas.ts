import Type from 'typebox';

/**
 * The shapes of each tool's `data` on success (docs/contract.md §3), as JSON
 * Schemas: each definition's `outputSchema` (`tools --json`; the MCP list
 * leaves them out, docs/decisions/0038). Extra fields are allowed, so a field
 * added later does not break a client that checks them.
 */
const Count = Type.Integer({ minimum: 0 });

export const ReadOutput = Type.Object({
  path: Type.String(),
  content: Type.String(),
  offset: Count,
  lineCount: Count,
  totalLines: Type.Optional(Count),
  truncated: Type.Boolean(),
  nextOffset: Type.Optional(Count),
  kind: Type.Optional(Type.Union([Type.Literal('image'), Type.Literal('notebook')])),
  encoding: Type.Optional(Type.Union([Type.Literal('utf-16le'), Type.Literal('utf-16be')])),
  image: Type.Optional(
    Type.Object({
      mediaType: Type.Union([Type.Literal('image/png'), Type.Literal('image/jpeg'), Type.Literal('image/gif'), Type.Literal('image/webp')]),
      bytes: Count,
      width: Type.Integer({ minimum: 1 }),
      height: Type.Integer({ minimum: 1 }),
    }),
  ),
  notebook: Type.Optional(Type.Object({ cells: Count, language: Type.Optional(Type.String()), images: Count, omittedImages: Count })),
});

export const WriteOutput = Type.Object({ path: Type.String(), created: Type.Boolean(), bytes: Count });

export const EditOutput = Type.Object({
  path: Type.String(),
  replacements: Count,
  created: Type.Boolean(),
  dryRun: Type.Optional(Type.Literal(true)),
  diff: Type.Optional(Type.String()),
});

const Skipped = Type.Object({ binary: Count, tooLarge: Count, unreadable: Count });
const NumberedLine = Type.Object({ line: Type.Integer({ minimum: 1 }), text: Type.String() });

/** One object for the three modes (MCP wants an object at the top): `matches`, `files` or `counts`, by mode. */
export const GrepOutput = Type.Object({
  matches: Type.Optional(
    Type.Array(
      Type.Object({
        path: Type.String(),
        line: Type.Integer({ minimum: 1 }),
        text: Type.String(),
        before: Type.Optional(Type.Array(NumberedLine)),
        after: Type.Optional(Type.Array(NumberedLine)),
        endLine: Type.Optional(Type.Integer({ minimum: 1 })),
        lines: Type.Optional(Type.Array(NumberedLine)),
        spanBytes: Type.Optional(Count),
      }),
    ),
  ),
  files: Type.Optional(Type.Array(Type.String())),
  counts: Type.Optional(Type.Array(Type.Object({ path: Type.String(), count: Type.Integer({ minimum: 1 }) }))),
  truncated: Type.Boolean(),
  skipped: Skipped,
  offset: Type.Optional(Count),
  nextOffset: Type.Optional(Count),
  total: Type.Optional(Count),
});

export const GlobOutput = Type.Object({ paths: Type.Array(Type.String()), truncated: Type.Boolean() });

export const ListOutput = Type.Object({
  path: Type.String(),
  entries: Type.Array(
    Type.Object({
      name: Type.String(),
      kind: Type.Union([Type.Literal('file'), Type.Literal('directory'), Type.Literal('symlink'), Type.Literal('other')]),
      size: Type.Optional(Count),
    }),
  ),
  total: Count,
  offset: Count,
  nextOffset: Type.Optional(Count),
});

const Captured = Type.Object({ text: Type.String(), totalBytes: Count, omittedBytes: Count, truncated: Type.Boolean() });

export const BashOutput = Type.Object({
  status: Type.Union([Type.Literal('exited'), Type.Literal('timed_out'), Type.Literal('cancelled'), Type.Literal('outcome_unknown'), Type.Literal('running')]),
  /** Only with `status: "running"`: the id bash_output, bash_kill and bash_write take. */
  backgroundId: Type.Optional(Type.String()),
  exitCode: Type.Union([Type.Integer(), Type.Null()]),
  signal: Type.Union([Type.String(), Type.Null()]),
  stdout: Captured,
  stderr: Captured,
  durationMs: Type.Number({ minimum: 0 }),
  containment: Type.Union([Type.Literal('cgroup'), Type.Literal('process_group')]),
  limitHit: Type.Optional(Type.Union([Type.Literal('processes'), Type.Literal('memory'), Type.Literal('session_memory')])),
  processesEndedAfterExit: Type.Integer({ minimum: 0 }),
});
