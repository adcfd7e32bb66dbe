import { readFile } from 'node:fs/promises';
import { DEFAULT_CAPTURE_LIMITS } from '@openwork/process-backend';
import { isErrorKind, type ErrorKind } from '@openwork/tool-contract';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BACKGROUND_OPTIONS } from '../src/bash/background/background-commands.ts';
import { DEFAULT_TIMEOUT_MS } from '../src/bash/bash.ts';
import { MAX_EDITS } from '../src/edit/edit.ts';
import { DEFAULT_MAX_PATHS } from '../src/glob/glob.ts';
import { MAX_SPAN_BYTES } from '../src/grep/format.ts';
import { DEFAULT_MAX_RESULTS } from '../src/grep/grep.ts';
import { DEFAULT_PAGE_ENTRIES } from '../src/list/list.ts';
import { builtinTools, DEFAULT_LIMITS } from '../src/index.ts';

/**
 * What the model must know of each tool to call it well, taken from the
 * code's constants and the contract: each must be said in the tool's
 * description or its input schema, however short they get.
 */
const definitions = new Map(builtinTools().map((tool) => [tool.definition.name, tool.definition]));
const told = (name: string): string => {
  const definition = definitions.get(name);
  if (definition === undefined) throw new Error(`no tool ${name}`);
  return `${definition.description}\n${JSON.stringify(definition.inputSchema)}`;
};

const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`;
const kib = (bytes: number) => `${bytes / 1024} KiB`;

const LIMITS: Readonly<Record<string, readonly string[]>> = {
  read: [mib(DEFAULT_LIMITS.maxContentBytes), `${DEFAULT_LIMITS.maxLineChars} characters`, mib(DEFAULT_LIMITS.maxImageBytes ?? 0), mib(DEFAULT_LIMITS.maxReadFileBytes), '"maximum":2000'],
  write: [mib(DEFAULT_LIMITS.maxContentBytes)],
  edit: [mib(DEFAULT_LIMITS.maxContentBytes), `"maxItems":${MAX_EDITS}`],
  grep: [
    mib(DEFAULT_LIMITS.maxSearchFileBytes),
    `${DEFAULT_LIMITS.maxLineChars} characters`,
    kib(MAX_SPAN_BYTES),
    `default ${DEFAULT_MAX_RESULTS}`,
    'Default files_with_matches',
    '"maximum":20',
  ],
  glob: [`Default ${DEFAULT_MAX_PATHS}`, '"maximum":2000'],
  list: [`default ${DEFAULT_PAGE_ENTRIES}`, '"maximum":2000'],
  bash: [`Default ${DEFAULT_TIMEOUT_MS}`, '"maximum":600000', kib(DEFAULT_CAPTURE_LIMITS.headBytes), `at most ${DEFAULT_BACKGROUND_OPTIONS.maxCommands}`],
  bash_output: ['Default 0', '"maximum":30000', kib(DEFAULT_BACKGROUND_OPTIONS.headBytes)],
};

/**
 * docs/contract.md §3.2: each row whose "raised by" begins with a tool's
 * name gives kinds that tool raises for reasons of its own (`stale`,
 * `no_match`, …), which the model can act on; the rows of the guard, the
 * adapter and the file system hold the kinds every tool shares.
 */
async function contractKinds(): Promise<Map<string, Set<ErrorKind>>> {
  const contract = await readFile(new URL('../../../docs/contract.md', import.meta.url), 'utf8');
  const section = contract.slice(contract.indexOf('### 3.2 Error kinds'), contract.indexOf('### 3.3'));
  const byTool = new Map<string, Set<ErrorKind>>();
  for (const row of section.split('\n').filter((line) => line.startsWith('| `'))) {
    const [, kinds = '', raisedBy = ''] = row.split('|').map((cell) => cell.trim());
    const first = /^[a-z_]+/.exec(raisedBy)?.[0];
    if (first === undefined || !definitions.has(first)) continue;
    const tools = [...definitions.keys()].filter((name) => new RegExp(`\\b${name}\\b`).test(raisedBy.split(':')[0] ?? ''));
    for (const kind of [...kinds.matchAll(/`([a-z_0-9]+)`/g)].map((match) => match[1])) {
      if (!isErrorKind(kind)) throw new Error(`docs/contract.md §3.2 names ${kind}, which is no error kind`);
      for (const tool of tools) byTool.set(tool, new Set([...(byTool.get(tool) ?? []), kind]));
    }
  }
  return byTool;
}

describe('what the definitions tell the model (docs/contract.md §2, §6)', () => {
  it('says every limit and default the model works within, in the description or the schema', () => {
    for (const [name, facts] of Object.entries(LIMITS)) {
      for (const fact of facts) expect(told(name), `${name}: ${fact}`).toContain(fact);
    }
  });

  it('names the error kinds a tool raises of its own, as the contract lists them', async () => {
    const kinds = await contractKinds();
    // The rows the contract has: read's decoding, edit's matching, edit and write's staleness, bash's start.
    expect([...kinds.keys()].sort()).toEqual(['bash', 'edit', 'read', 'write']);
    expect(kinds.get('edit')).toEqual(new Set(['binary', 'invalid_utf8', 'no_match', 'ambiguous_match', 'no_change', 'already_exists', 'stale']));
    for (const [name, raised] of kinds) for (const kind of raised) expect(told(name), `${name}: ${kind}`).toContain(`\`${kind}\``);
    // Limits reached as errors: an image above the cap, an unknown grep type.
    expect(told('read')).toContain('`too_large`');
    expect(told('grep')).toContain('`invalid_input`');
  });

  it('keeps each description under 2,000 characters', () => {
    for (const [name, definition] of definitions) expect(definition.description.length, name).toBeLessThanOrEqual(2000);
  });
});
