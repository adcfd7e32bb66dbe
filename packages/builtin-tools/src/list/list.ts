import { defineTool, ToolError } from '@openwork/tool-contract';
import type { DirectoryEntry } from '@openwork/fs-backend';
import Type from 'typebox';
import { descriptions } from '../descriptions.generated.ts';
import type { BuiltinSession } from '../session.ts';
import { escapeName } from '../common/escape-name.ts';
import { compareBytes } from '../common/text.ts';
import { ListOutput } from '../common/output-schemas.ts';

/** Entries of one page when `limit` is not given. */
export const DEFAULT_PAGE_ENTRIES = 200;

export const ListInput = Type.Object({
  path: Type.Optional(Type.String({ description: 'Default the working directory.' })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Zero-based entry to start at; default 0.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 2000, description: `Entries per page; default ${DEFAULT_PAGE_ENTRIES}.` })),
});

export interface ListData {
  readonly path: string;
  readonly entries: readonly DirectoryEntry[];
  readonly total: number;
  readonly offset: number;
  readonly nextOffset?: number;
}

const SUFFIX = { file: '', directory: '/', symlink: '@', other: '?' } as const;

export const listTool = defineTool({
  id: 'filesystem/list',
  name: 'list',
  description: descriptions.list,
  risk: 'read',
  input: ListInput,
  output: ListOutput,
  effect: (input) => ({ kind: 'read', paths: [input.path ?? '.'] }),
  execute: async (session: BuiltinSession, call, input) => {
    const offset = input.offset ?? 0;
    const limit = input.limit ?? DEFAULT_PAGE_ENTRIES;
    const path = await session.paths.resolvePath(input.path ?? '.', 'read', 'must_exist', { signal: call.signal });
    if (path.kind !== 'directory') {
      throw new ToolError('not_a_directory', `${escapeName(path.displayPath)} is not a directory; use read for a file`);
    }
    const all = await session.filesystem.readDirectory(path, { signal: call.signal });
    // docs/design.md §9 list: paging runs on a stable sorted order.
    const sorted = [...all].sort((left, right) => compareBytes(left.name, right.name));
    const page = sorted.slice(offset, offset + limit).map((entry) => ({ name: entry.name, kind: entry.kind, ...(entry.size === undefined ? {} : { size: entry.size }) }));
    const next = offset + page.length;
    const data: ListData = {
      path: path.displayPath,
      entries: page,
      total: sorted.length,
      offset,
      ...(next < sorted.length ? { nextOffset: next } : {}),
    };
    // A name with a newline in it must not read as two entries: escapeName quotes it; the data keeps it as it is.
    const lines = page.map((entry) => `${escapeName(entry.name)}${SUFFIX[entry.kind]}${entry.size === undefined ? '' : `\t${entry.size}`}`);
    const shownPath = escapeName(path.displayPath);
    if (sorted.length === 0) lines.push(`[${shownPath} is empty]`);
    else if (offset >= sorted.length) lines.push(`[offset ${offset} is past the last entry; ${shownPath} has ${sorted.length}]`);
    else if (next < sorted.length) lines.push(`[entries ${offset + 1}-${next} of ${sorted.length}; continue with offset ${next}]`);
    return { data, output: lines.join('\n') };
  },
});
