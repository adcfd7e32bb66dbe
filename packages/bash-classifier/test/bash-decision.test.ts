// decideBashCommand's checks on the disk, in one small real tree: where a
// command starts (bash's workdir), what a glob or a walk can reach, the jq
// program a line reads, the writes of the filesystem gate (.git, protected
// directories, an existing tree under cp -r) and an allow rule's approval
// (docs/contract.md §4.3, docs/security.md).
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFileSystem } from '@openwork/fs-backend/node';
import { PathGuard } from '@openwork/path-guard';
import { PipeProcessBackend } from '@openwork/process-backend/pipe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashReader, createCommandClassifier, decideBashCommand, quoteCommand } from '../src/index.ts';
import type { BashDecisionOptions, CommandClassifier, PermissionMode } from '../src/index.ts';

let classifier: CommandClassifier;
let base: string;
let ws: string;
let readOnly: string;
let outside: string;
let paths: PathGuard;
const filesystem = new NodeFileSystem();
const processes = new PipeProcessBackend();
const reader = bashReader(processes, { PATH: process.env.PATH ?? '/usr/bin:/bin' });

beforeAll(async () => {
  classifier = await createCommandClassifier();
  base = await realpath(await mkdtemp(join(tmpdir(), 'ow-bash-decision-')));
  ws = join(base, 'ws');
  readOnly = join(base, 'read-only');
  outside = join(base, 'outside');
  for (const directory of [ws, readOnly, outside, join(ws, 'src'), join(ws, 'plain'), join(ws, '.git'), join(ws, '.husky'), join(ws, 'tree-dst', 'src')]) {
    await mkdir(directory, { recursive: true });
  }
  await writeFile(join(outside, 'secret'), 'SECRET\n');
  await writeFile(join(ws, 'a.txt'), 'a\n');
  await writeFile(join(ws, 'src', 'in.txt'), 'in\n');
  await writeFile(join(ws, 'plain', 'p.txt'), 'p\n');
  await writeFile(join(readOnly, 'r.txt'), 'r\n');
  await writeFile(join(ws, 'safe.jq'), '.a\n');
  await writeFile(join(ws, 'loads.jq'), 'import "m" as m; .a\n');
  await symlink(join(outside, 'secret'), join(ws, 'src', 'out-link'));
  await symlink(outside, join(ws, 'to-outside'));
  paths = await PathGuard.create({ workingDirectory: ws, readOnlyRoots: [readOnly], probe: filesystem });
});

afterAll(async () => {
  await processes.dispose();
  await rm(base, { recursive: true, force: true });
});

/** `unlisted`: decided without a file system to list directories and read files with. */
function decide(command: string, options: { cwd?: string; mode?: PermissionMode; unlisted?: boolean } & Omit<BashDecisionOptions, 'filesystem'> = {}) {
  const { cwd = ws, mode = 'default', unlisted = false, ...rest } = options;
  return decideBashCommand(classifier, paths, { kind: 'execute', command, cwd }, mode, { ...(unlisted ? {} : { filesystem }), bashReader: reader, ...rest });
}

const asks = async (command: string, why: string, options: Parameters<typeof decide>[1] = {}) => {
  const decision = await decide(command, options);
  expect(decision.verdict, decision.reason).toBe('ask');
  expect(decision).not.toHaveProperty('approved');
  expect(decision.reason).toContain(why);
};

describe('where the command starts', () => {
  it('reads its paths from there: inside, through a symlink out, with .., absolute', async () => {
    const src = join(ws, 'src');
    expect(await decide('cat in.txt', { cwd: src })).toMatchObject({ verdict: 'allow', rule: 'read_only:cat' });
    expect(await decide('cat a.txt', { cwd: '.' })).toMatchObject({ verdict: 'allow' });
    await asks('cat out-link', 'it reads src/out-link, which is outside the readable roots (outside_root)', { cwd: src });
    await asks('cat ../a.txt', '../a.txt has a .. that the program resolves from where the command starts', { cwd: src });
    await asks(`cat ${outside}/secret`, `it reads ${outside}/secret, which is outside the readable roots`, { cwd: src });
    await asks('cat ./*', 'a glob in src can expand to it', { cwd: src });
  });

  it('outside the working directory but in a readable root, paths are read from there', async () => {
    expect(await decide('cat r.txt', { cwd: readOnly })).toMatchObject({ verdict: 'allow' });
    await asks('cat r.txt', `it would start in ${outside} (outside_root)`, { cwd: outside });
    await asks('ls', `it would start in ${join(ws, 'to-outside')} (outside_root)`, { cwd: join(ws, 'to-outside') });
    await asks('ls', `it would start in ${join(ws, 'missing')} (not_found)`, { cwd: join(ws, 'missing') });
  });
});

describe('what a glob or a walk can reach', () => {
  it('a glob asks when its directory holds a symlink out, or was not listed', async () => {
    expect(await decide('cat plain/*')).toMatchObject({ verdict: 'allow' });
    await asks('cat src/*', 'it reads src/out-link, which is outside the readable roots (outside_root)');
    await asks('cat src/*', 'would let it run; a glob in src can expand to it');
    await asks('cat plain/*', 'the glob in plain may expand to a symlink that leads outside the roots', { unlisted: true });
  });

  it('grep -R asks when the directories it walks were not listed', async () => {
    expect(await decide('grep -R p plain')).toMatchObject({ verdict: 'allow' });
    await asks('grep -R p plain', 'the walk under plain follows symlinks, and its directories were not listed', { unlisted: true });
  });
});

describe('a jq program file', () => {
  it('is read first: one that loads a module, or one not read, asks', async () => {
    expect(await decide('jq -f safe.jq a.txt')).toMatchObject({ verdict: 'allow', rule: 'read_only:jq' });
    await asks('jq -f loads.jq a.txt', 'the jq program loads.jq uses import');
    await asks('jq -f safe.jq a.txt', 'a jq program file may load modules from anywhere, and it was not read', { unlisted: true });
    await asks('jq -f missing.jq a.txt', 'the jq program missing.jq could not be read');
    await asks('jq -f safe.jq a.txt', 'the jq program src/safe.jq could not be read', { cwd: join(ws, 'src') });
  });

  it('asks in a line with a gate command, which could change it after the check', async () => {
    await asks('touch n && jq -f safe.jq a.txt', 'a filesystem command in the same line may change', { mode: 'acceptEdits' });
  });
});

describe('the writes of the filesystem gate', () => {
  it('asks for .git, for a protected directory, for a read-only root, and for cp -r into an existing tree', async () => {
    const mode = 'acceptEdits';
    await asks('touch .git/x', '.git/x is inside .git, where a change alters what git runs', { mode });
    expect(await decide('touch .husky/x', { mode })).toMatchObject({ verdict: 'allow', rule: 'filesystem_gate:touch' });
    await asks('touch .husky/x', '.husky/x is inside .husky, where a change alters what runs without asking', { mode, protectedDirectories: ['.github', '.husky'] });
    await asks(`touch ${readOnly}/x`, `${readOnly}/x is not inside a writable root (protected)`, { mode });
    await asks('cp -r src tree-dst/', 'tree-dst/src exists: cp -r into an existing tree writes through any symlink inside it', { mode });
    expect(await decide('cp -r plain tree-dst/', { mode })).toMatchObject({ verdict: 'allow' });
    // cp a dst/ writes nothing when dst does not exist: there is nothing to write through.
    expect(await decide('cp a.txt missing/', { mode })).toMatchObject({ verdict: 'allow' });
  });
});

describe('an allow rule and the reason', () => {
  it('a line an allow rule matched is an approved ask with the rule', async () => {
    const allowRules = [{ name: 'allow:bash:npm test', prefix: ['npm', 'test'] }];
    expect(await decide('npm test', { allowRules })).toEqual({ verdict: 'ask', approved: true, reason: expect.stringContaining('bash runs "npm test": ') as string, rule: 'allow:bash:npm test' });
    await asks('npm test', 'npm is not on the read-only list');
  });

  it('quotes a command whole up to 200 characters, then its start and how much was left out', () => {
    expect(quoteCommand('x'.repeat(200))).toBe(JSON.stringify('x'.repeat(200)));
    expect(quoteCommand('y'.repeat(201))).toBe(`${JSON.stringify('y'.repeat(200))} … 1 more characters omitted … (201 characters in all)`);
  });
});
