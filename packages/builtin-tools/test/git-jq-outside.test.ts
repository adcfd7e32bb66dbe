import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PermissionDecision } from '@openwork/tool-contract';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCommandClassifier } from '@openwork/bash-classifier';
import type { CommandClassifier } from '@openwork/bash-classifier';
import { APPROVED, decideIn, runDecided } from './bash-decision.ts';
import { createHarness, type Harness } from './harness.ts';

let classifier: CommandClassifier;
beforeAll(async () => {
  classifier = await createCommandClassifier();
});

let h: Harness;
/** A directory beside the workspace, outside every root. */
let out: string;
beforeEach(async () => {
  h = await createHarness();
  out = join(h.root, 'OUT');
  await mkdir(out);
  await writeFile(join(out, 'secret'), 'SECRET-LINE\nSECRET-TWO\n');
  await writeFile(join(out, 'data.json'), '{"secret":"JQ-SECRET"}\n');
  await writeFile(join(out, 'm.jq'), 'def s: "MODULE-SECRET";\n');
});
afterEach(async () => {
  await h.session.processes.dispose();
  await h.cleanup();
});

const modes = ['default', 'acceptEdits'] as const;

const decide = (command: string, mode: (typeof modes)[number] = 'default'): Promise<PermissionDecision> => decideIn(h, classifier, command, mode);
const approved = APPROVED;

/** Runs the command as the toolset would after this decision; stdout and stderr together. */
async function output(command: string, decision: PermissionDecision = approved): Promise<string> {
  const data = await runDecided(h, command, decision);
  return `${data.stdout.text}${data.stderr.text}`;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
}

/** The workspace as a repository: a.txt committed and changed since, sub/s.txt, and `link` to the outside directory. */
async function repository(): Promise<void> {
  git(h.ws, 'init', '-q', '.');
  await writeFile(join(h.ws, 'a.txt'), 'one\n');
  await mkdir(join(h.ws, 'sub'));
  await mkdir(join(h.ws, 'src'));
  await writeFile(join(h.ws, 'sub', 's.txt'), 's\n');
  await writeFile(join(h.ws, 'src', 'x.ts'), 'x\n');
  git(h.ws, 'add', '.');
  git(h.ws, 'commit', '-qm', 'one');
  await writeFile(join(h.ws, 'a.txt'), 'one\ntwo\n');
  await symlink(out, join(h.ws, 'link'));
}

/** A repository outside the roots with one commit whose text is secret. */
function outsideRepository(): string {
  const repo = join(out, 'repo');
  execFileSync('mkdir', ['-p', repo]);
  git(repo, 'init', '-q', '.');
  execFileSync('sh', ['-c', 'echo OUTSIDE-HISTORY > h.txt'], { cwd: repo });
  git(repo, 'add', '.');
  git(repo, 'commit', '-qm', 'outside commit');
  return repo;
}

async function expectAsks(command: string, secret: string, why?: string): Promise<void> {
  for (const mode of modes) {
    const decision = await decide(command, mode);
    expect(decision.verdict, `${mode}: ${command}`).toBe('ask');
    expect(decision.approved, command).toBeUndefined();
    if (why !== undefined) expect(decision.reason, command).toContain(why);
  }
  // The route is real: run anyway, git or jq prints what lies outside.
  expect(await output(command), command).toContain(secret);
}

describe('git reads nothing outside the roots through its operands and options', () => {
  it.each([
    // An outside path that does not start with ../ still makes git diff compare files (--no-index implied).
    ['git diff ./../OUT/secret a.txt', 'SECRET-LINE'],
    // -S prints each line of the revisions file it cannot parse; --ignore-revs-file the first.
    ['git blame -S ../OUT/secret a.txt', 'SECRET-LINE'],
    ['git blame -wS../OUT/secret a.txt', 'SECRET-LINE'],
    ['git blame -S link/secret a.txt', 'SECRET-LINE'],
    ['git blame --ignore-revs-file link/secret a.txt', 'SECRET-LINE'],
    ['git blame --ignore-revs-file=./../OUT/secret a.txt', 'SECRET-LINE'],
    ['git blame --contents ./../OUT/secret a.txt', 'SECRET-LINE'],
  ])('%s asks', async (command, secret) => {
    await repository();
    await expectAsks(command, secret, 'outside the readable roots');
  });

  it.each([
    ['git blame --conten=../OUT/secret a.txt', '--contents'],
    ['git blame --ignore-revs-f ../OUT/secret a.txt', '--ignore-revs-file'],
    ['git ls-files --exclude-fr=../OUT/secret -o', '--exclude-from'],
    ['git diff --no-ind ../OUT/secret a.txt', '--no-index'],
    ['git diff --outp=made.txt', '--output'],
    ['git status --h', '--help'],
  ])('%s asks: git takes an abbreviation of a long option', async (command, option) => {
    await repository();
    for (const mode of modes) {
      const decision = await decide(command, mode);
      expect(decision.verdict, command).toBe('ask');
      expect(decision.reason).toContain(`may be ${option}`);
    }
  });

  it('blame --conten is the abbreviation git reads, printing the file', async () => {
    await repository();
    expect(await output('git blame --conten=./link/secret a.txt')).toContain('SECRET-LINE');
  });

  it('a relative file option is checked from the top of the work tree too, where git blame opens it', async () => {
    await repository();
    // From sub, sub/link does not exist; git opens link/secret from the top of the work tree.
    const command = 'git -C sub blame -S link/secret s.txt';
    const decision = await decide(command);
    expect(decision.verdict).toBe('ask');
    expect(decision.reason).toContain('from the top of the work tree');
    expect(await output(command)).toContain('SECRET-LINE');
  });

  it.each([
    'git log -p -O ../OUT/secret',
    'git diff -O../OUT/secret',
    'git ls-files -X ../OUT/secret -o',
    'git ls-files --exclude-from=link/secret -o',
    'git ls-files --exclude-per-directory=link/secret -o',
    'git rev-parse --resolve-git-dir ../OUT/repo/.git',
    // git would refuse a path beyond a symlink here, but the operand is checked like any other read.
    'git diff link/secret a.txt',
  ])('%s asks: its option names a file outside', async (command) => {
    await repository();
    outsideRepository();
    for (const mode of modes) expect((await decide(command, mode)).verdict, command).toBe('ask');
  });

  it.each([
    'git diff a.txt',
    'git log -p -- src',
    'git blame a.txt',
    'git blame --contents a.txt a.txt',
    'git blame --ignore-rev HEAD a.txt',
    'git diff --text HEAD',
    'git ls-files --exclude=x -o',
    'git ls-files --exclude-per-directory=.gitignore -o',
    'git -C sub blame s.txt',
    'git log --oneline -O sub/s.txt',
  ])('%s still runs on its own', async (command) => {
    await repository();
    const decision = await decide(command);
    expect(decision.verdict, decision.reason).toBe('allow');
    await output(command, decision);
  });
});

describe('the repository a git command uses lies inside the roots', () => {
  it('an embedded repository whose commondir names a repository outside asks', async () => {
    await repository();
    const repo = outsideRepository();
    // All of it is ordinary files a commit can carry: a .git file and a directory that looks like a git directory.
    await mkdir(join(h.ws, 'vendor', 'evil'), { recursive: true });
    await mkdir(join(h.ws, 'vendor', 'evil-gitdir'));
    await writeFile(join(h.ws, 'vendor', 'evil', '.git'), 'gitdir: ../evil-gitdir\n');
    await writeFile(join(h.ws, 'vendor', 'evil-gitdir', 'HEAD'), 'ref: refs/heads/master\n');
    await writeFile(join(h.ws, 'vendor', 'evil-gitdir', 'commondir'), `${join(repo, '.git')}\n`);
    await expectAsks('git -C vendor/evil log -p', 'OUTSIDE-HISTORY', 'commondir');
    await expectAsks('cd vendor/evil && git show', 'OUTSIDE-HISTORY', 'commondir');
  });

  it('objects/info/alternates naming an object directory outside asks', async () => {
    await repository();
    const repo = outsideRepository();
    const outsideCommit = git(repo, 'rev-parse', 'HEAD').trim();
    git(h.ws, 'init', '-q', 'vendor/alt');
    await writeFile(join(h.ws, 'vendor', 'alt', '.git', 'objects', 'info', 'alternates'), `${join(repo, '.git', 'objects')}\n`);
    await expectAsks(`git -C vendor/alt show ${outsideCommit}`, 'OUTSIDE-HISTORY', 'alternate');
  });

  it('a file git reads in its directory that is a symlink outside asks (packed-refs)', async () => {
    await repository();
    const repo = outsideRepository();
    git(repo, 'pack-refs', '--all');
    await mkdir(join(h.ws, 'vendor', 'copy'), { recursive: true });
    execFileSync('cp', ['-r', join(repo, '.git'), join(h.ws, 'vendor', 'copy-gitdir')]);
    await writeFile(join(h.ws, 'vendor', 'copy', '.git'), 'gitdir: ../copy-gitdir\n');
    execFileSync('ln', ['-sf', join(out, 'secret'), join(h.ws, 'vendor', 'copy-gitdir', 'packed-refs')]);
    await expectAsks('git -C vendor/copy log --oneline', 'SECRET', 'packed-refs');
  });

  it("a linked work tree's git directory whose back-link leads outside asks", async () => {
    await repository();
    git(h.ws, 'worktree', 'add', '-q', join(out, 'wt'));
    await mkdir(join(h.ws, 'other'));
    await writeFile(join(h.ws, 'other', '.git'), `gitdir: ${join(h.ws, '.git', 'worktrees', 'wt')}\n`);
    const decision = await decide('git -C other status');
    expect(decision.verdict).toBe('ask');
    expect(decision.reason).toContain('linked work tree');
  });

  it('a file the repository configuration names outside the roots asks (blame.ignoreRevsFile prints its first line)', async () => {
    await repository();
    git(h.ws, 'config', 'blame.ignoreRevsFile', '../OUT/secret');
    await expectAsks('git blame a.txt', 'SECRET-LINE', 'blame.ignorerevsfile');
    await expectAsks('git -C sub blame s.txt', 'SECRET-LINE', 'blame.ignorerevsfile');
    git(h.ws, 'config', 'blame.ignoreRevsFile', '~/x');
    expect((await decide('git blame a.txt')).reason).toContain('home directory');
    await writeFile(join(h.ws, '.git-blame-ignore-revs'), '\n');
    git(h.ws, 'config', 'blame.ignoreRevsFile', '.git-blame-ignore-revs');
    expect((await decide('git -C sub blame s.txt')).verdict).toBe('allow');
  });

  it('an ordinary repository nested in the workspace still runs on its own', async () => {
    await repository();
    git(h.ws, 'init', '-q', 'vendor/good');
    await writeFile(join(h.ws, 'vendor', 'good', 'g.txt'), 'g\n');
    git(join(h.ws, 'vendor', 'good'), 'add', '.');
    git(join(h.ws, 'vendor', 'good'), 'commit', '-qm', 'good');
    for (const command of ['git -C vendor/good log -p', 'cd vendor/good && git status']) {
      const decision = await decide(command);
      expect(decision.verdict, decision.reason).toBe('allow');
      expect(await output(command, decision)).not.toContain('SECRET');
    }
  });
});

describe('jq loads no module and reads no file outside the roots', () => {
  it('a program file that imports with a search path outside asks, and one without runs', async () => {
    await writeFile(join(h.ws, 'prog.jq'), 'import "data" as $d {search: "../OUT"}; $d\n');
    await writeFile(join(h.ws, 'plain.jq'), '.a\n');
    await writeFile(join(h.ws, 'a.json'), '{"a": 1}\n');
    await expectAsks('jq -n -f prog.jq', 'JQ-SECRET', 'import');
    await expectAsks('jq -nf prog.jq', 'JQ-SECRET', 'import');
    await expectAsks('jq --from-file prog.jq -n', 'JQ-SECRET', 'import');
    const plain = await decide('jq -f plain.jq a.json');
    expect(plain.verdict, plain.reason).toBe('allow');
    expect((await output('jq -f plain.jq a.json', plain)).trim()).toBe('1');
  });

  it.each([
    ['jq -n \'import "data" as $d {search: "../OUT"}; $d\'', 'JQ-SECRET'],
    ['jq -n \'import "../OUT/data" as $d; $d\'', 'JQ-SECRET'],
    ['jq -n \'include "m" {search: "../OUT"}; s\'', 'MODULE-SECRET'],
    ['jq -L ../OUT -n \'import "data" as $d; $d\'', 'JQ-SECRET'],
    ['jq -L../OUT -n \'include "m"; s\'', 'MODULE-SECRET'],
    ['jq -n --rawfile x ../OUT/secret \'$x\'', 'SECRET-LINE'],
    ['jq -n --slurpfile x link/data.json \'$x\'', 'JQ-SECRET'],
  ])('%s asks', async (command, secret) => {
    await symlink(out, join(h.ws, 'link'));
    await expectAsks(command, secret);
  });

  it.each([
    'jq -n -f missing.jq',
    'jq -fn prog.jq',
    'jq a.json -f prog.jq',
    'jq -n -f link/prog.jq',
    'jq -n \'"m" | modulemeta\'',
    'jq -n --library-path ../OUT .',
  ])('%s asks: the program jq runs is not the one looked at', async (command) => {
    await symlink(out, join(h.ws, 'link'));
    await writeFile(join(out, 'prog.jq'), '.\n');
    await writeFile(join(h.ws, 'prog.jq'), '.\n');
    await writeFile(join(h.ws, 'a.json'), '{}\n');
    for (const mode of modes) expect((await decide(command, mode)).verdict, command).toBe('ask');
  });

  it('jq reads --rawfile and --slurpfile inside the roots on its own', async () => {
    await writeFile(join(h.ws, 'a.json'), '{"a": 1}\n');
    const command = 'jq -cn --rawfile x a.json --slurpfile y a.json \'[$x, $y]\'';
    const decision = await decide(command);
    expect(decision.verdict, decision.reason).toBe('allow');
    expect(await output(command, decision)).toContain('[{"a":1}]');
  });
});

describe('a filesystem command in the same line cannot change what git or jq was checked against', () => {
  it('acceptEdits: a copy before git or jq in one line asks', async () => {
    await repository();
    await mkdir(join(h.ws, 'vendor', 'evil'), { recursive: true });
    await mkdir(join(h.ws, 'vendor', 'evil-gitdir'));
    await writeFile(join(h.ws, 'vendor', 'evil', '.git'), 'gitdir: ../evil-gitdir\n');
    await writeFile(join(h.ws, 'vendor', 'evil-gitdir', 'HEAD'), 'ref: refs/heads/master\n');
    await writeFile(join(h.ws, 'prog.jq'), '.\n');
    await writeFile(join(h.ws, 'evil.jq'), 'import "data" as $d {search: "../OUT"}; $d\n');
    for (const command of ['cp evil.jq prog.jq && jq -n -f prog.jq', 'mkdir -p x && git -C vendor/evil log -p', 'touch a.txt; git status']) {
      const decision = await decide(command, 'acceptEdits');
      expect(decision.verdict, command).toBe('ask');
      expect(decision.reason, command).toContain('run them one at a time');
    }
  });
});

it('acceptEdits: a read after cp -r in one line asks, since the copy may hold a symlink that leads outside', async () => {
  await mkdir(join(h.ws, 'd'));
  await symlink(out, join(h.ws, 'd', 'l'));
  const command = 'cp -r d e && cat e/l/secret';
  const decision = await decide(command, 'acceptEdits');
  expect(decision.verdict).toBe('ask');
  expect(decision.reason).toContain('run them one at a time');
  // The route is real: cp -r copies the symlink as it is.
  expect(await output(command)).toContain('SECRET-LINE');
  expect((await decide('cp -r d f', 'acceptEdits')).verdict).toBe('allow');
});
