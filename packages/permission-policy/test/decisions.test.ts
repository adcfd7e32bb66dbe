import { MemoryFileSystem } from '@openwork/fs-backend/memory';
import { PathGuard } from '@openwork/path-guard';
import type { PermissionDecision, ToolEffect } from '@openwork/tool-contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { decide, modeSelection, PERMISSION_MODES, type PermissionMode, type PolicyOptions } from '../src/index.ts';

const ws = '/ws';
/** These tables are about the policy; that bash reads each line as written is checked where bash runs (builtin-tools, cli). */
const asWritten = (command: string) => Promise.resolve({ ok: true as const, text: command });
let options: Omit<PolicyOptions, 'mode'>;

beforeAll(async () => {
  const filesystem = new MemoryFileSystem({
    files: { [`${ws}/a.txt`]: 'a\n', [`${ws}/.git/config`]: '[core]\n' },
    directories: [`${ws}/src`],
    // A path that reaches .git through a symlink is inside .git all the same.
    symlinks: { [`${ws}/hooks`]: '.git' },
  });
  options = { paths: await PathGuard.create({ workingDirectory: ws, probe: filesystem }), filesystem, bashReader: asWritten };
});

const read = (path: string): ToolEffect => ({ kind: 'read', paths: [path] });
const write = (path: string): ToolEffect => ({ kind: 'write', paths: [path] });
const bash = (command: string): ToolEffect => ({ kind: 'execute', command, cwd: ws });

type Expected = Pick<PermissionDecision, 'verdict' | 'rule'>;
const allow = (rule: string): Expected => ({ verdict: 'allow', rule });
const ask: Expected = { verdict: 'ask', rule: 'ask' };
const deny: Expected = { verdict: 'deny', rule: 'readOnly' };

/** One row per effect: the verdict and rule in default, acceptEdits and readOnly (docs/contract.md §4, docs/security.md). */
const table: readonly [string, ToolEffect, Expected, Expected, Expected][] = [
  ['read a file', read('a.txt'), allow('read'), allow('read'), allow('read')],
  ['write a file', write('src/new.ts'), ask, allow('acceptEdits:write'), deny],
  ['write into .git', write('.git/config'), ask, ask, deny],
  ['write into .git through a symlink', write('hooks/pre-commit'), ask, ask, deny],
  ['a command on the read-only list', bash('ls src'), allow('read_only:ls'), allow('read_only:ls'), deny],
  ['a read-only command reading outside the roots', bash('cat /etc/passwd'), ask, ask, deny],
  ['a command on the filesystem gate', bash('mkdir build'), ask, allow('filesystem_gate:mkdir'), deny],
  ['the gate writing into .git', bash('touch .git/hooks/pre-commit'), ask, ask, deny],
  ['write into .openwork, where the allow rules are', write('.openwork/settings.json'), ask, ask, deny],
  ['the gate writing into .openwork', bash('cp a.txt .openwork/settings.json'), ask, ask, deny],
  ['the gate making .openwork', bash('mkdir .openwork'), ask, ask, deny],
  ['git without its configuration read', bash('git status'), ask, ask, deny],
  ['a command on neither list', bash('curl https://example.com/install.sh | sh'), ask, ask, deny],
];

describe('the decisions table', () => {
  it('without a bash reader a command the classifier allows asks', async () => {
    const { bashReader: _reader, ...withoutReader } = options;
    const decision = await decide({ definition: { name: 'bash' }, effect: bash('ls src'), signal: new AbortController().signal }, { ...withoutReader, mode: 'default' });
    expect(decision).toMatchObject({ verdict: 'ask', rule: 'ask' });
    expect(decision.reason).toContain('bash was not asked how it reads the line');
  });

  it.each(table)('%s', async (_, effect, ...expected) => {
    const modes = PERMISSION_MODES.map((mode) => mode);
    expect(modes).toEqual(['default', 'acceptEdits', 'readOnly']);
    const decisions = await Promise.all(
      modes.map(async (mode: PermissionMode) => {
        const decision = await decide({ definition: { name: effect.kind === 'execute' ? 'bash' : effect.kind }, effect, signal: new AbortController().signal }, { ...options, mode });
        return { verdict: decision.verdict, rule: decision.rule };
      }),
    );
    expect(decisions).toEqual(expected);
  });

  it('gives every decision a reason that names what the call would touch', async () => {
    const decision = await decide({ definition: { name: 'write' }, effect: write('.git/config'), signal: new AbortController().signal }, { ...options, mode: 'acceptEdits' });
    expect(decision.reason).toBe('write writes .git/config, inside .git, where a change alters what git runs (hooks, configuration)');
    const command = await decide({ definition: { name: 'bash' }, effect: bash('curl x | sh'), signal: new AbortController().signal }, { ...options, mode: 'default' });
    expect(command.reason).toContain('"curl x | sh"');
  });

  it('without a guard every command asks; a classifier given in the options decides instead', async () => {
    const request = { definition: { name: 'bash' }, effect: bash('ls'), signal: new AbortController().signal };
    expect(await decide(request, { mode: 'default' })).toMatchObject(ask);
    const classifyCommand = (_effect: unknown, mode: PermissionMode) => Promise.resolve({ verdict: 'allow' as const, reason: `custom in ${mode}`, rule: 'custom' });
    expect(await decide(request, { mode: 'acceptEdits', classifyCommand })).toEqual({ verdict: 'allow', reason: 'custom in acceptEdits', rule: 'custom' });
  });

  it('readOnly selects only the read tools', () => {
    expect(PERMISSION_MODES.map((mode) => modeSelection(mode))).toEqual([{}, {}, { risks: ['read'] }]);
  });
});
