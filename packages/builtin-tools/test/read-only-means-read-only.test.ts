import { execFileSync } from 'node:child_process';
import { chmod, mkdir, symlink, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PathGuard } from '@openwork/path-guard';
import type { PermissionDecision } from '@openwork/tool-contract';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { autoRunEnvironment, bashReader, createCommandClassifier, decideBashCommand } from '@openwork/bash-classifier';
import type { BashData } from '../src/index.ts';
import type { CommandClassifier } from '@openwork/bash-classifier';
import { APPROVED, decideIn, runDecided } from './bash-decision.ts';
import { createHarness, type Harness } from './harness.ts';

let classifier: CommandClassifier;
beforeAll(async () => {
  classifier = await createCommandClassifier();
});

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.session.processes.dispose();
  await h.cleanup();
});

const decide = (command: string, mode: 'default' | 'acceptEdits' = 'default'): Promise<PermissionDecision> => decideIn(h, classifier, command, mode);
const run = (command: string, decision: PermissionDecision): Promise<BashData> => runDecided(h, command, decision);
const approved = APPROVED;

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: h.ws, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
}

/** A repository with one commit and a tracked file changed since, so status and diff have work to do. */
async function repository(): Promise<void> {
  git('init', '-q', '.');
  await writeFile(join(h.ws, 'a.txt'), 'one\n');
  git('add', 'a.txt');
  git('commit', '-qm', 'one');
  await writeFile(join(h.ws, 'a.txt'), 'one\ntwo\n');
  // A new mtime makes git status refresh (and, unprevented, rewrite) the index.
  const later = new Date(Date.now() + 5000);
  await utimes(join(h.ws, 'a.txt'), later, later);
}

const marker = (name: string) => join(h.root, `PWNED-${name}`);

describe('git on the read-only list runs with the repository unable to run code', () => {
  it.each([
    ['core.fsmonitor', 'git status', (m: string) => git('config', 'core.fsmonitor', `touch ${m}; false #`)],
    ['core.hooksPath', 'git status --short', async (m: string) => {
      await mkdir(join(h.ws, 'hooks'));
      await writeFile(join(h.ws, 'hooks', 'post-index-change'), `#!/bin/sh\ntouch ${m}\n`);
      await chmod(join(h.ws, 'hooks', 'post-index-change'), 0o755);
      git('config', 'core.hooksPath', join(h.ws, 'hooks'));
    }],
    ['an executable post-index-change hook', 'git status', async (m: string) => {
      await writeFile(join(h.ws, '.git', 'hooks', 'post-index-change'), `#!/bin/sh\ntouch ${m}\n`);
      await chmod(join(h.ws, '.git', 'hooks', 'post-index-change'), 0o755);
    }],
    ['an include.path holding core.fsmonitor', 'git status', async (m: string) => {
      await writeFile(join(h.ws, 'included.cfg'), `[core]\n\tfsmonitor = "touch ${m}; false #"\n`);
      git('config', 'include.path', join(h.ws, 'included.cfg'));
    }],
    ['an alias with ! named like a builtin', 'git status', (m: string) => git('config', 'alias.status', `!touch ${m}`)],
  ])('%s: %s runs on its own and runs nothing of the repository', async (name, command, plant) => {
    await repository();
    await plant(marker(name));
    const decision = await decide(command);
    expect(decision.verdict, decision.reason).toBe('allow');
    expect(decision.reason).toContain('core.fsmonitor, core.hooksPath, pagers');
    const exit = await run(command, decision);
    expect(exit.exitCode, exit.stderr.text).toBe(0);
    expect(existsSync(marker(name))).toBe(false);
  });

  it('the vectors are real: approved, the same commands run what the repository names', async () => {
    await repository();
    git('config', 'core.fsmonitor', `touch ${marker('fsmonitor')}; false #`);
    await writeFile(join(h.ws, '.git', 'hooks', 'post-index-change'), `#!/bin/sh\ntouch ${marker('hook')}\n`);
    await chmod(join(h.ws, '.git', 'hooks', 'post-index-change'), 0o755);
    await run('git status', approved);
    expect(existsSync(marker('fsmonitor'))).toBe(true);
    expect(existsSync(marker('hook'))).toBe(true);
  });

  it('reports a key it overrode in the reason', async () => {
    await repository();
    git('config', 'core.pager', `touch ${marker('pager')}; cat`);
    git('config', 'pager.log', `touch ${marker('pager-log')}; cat`);
    const decision = await decide('git log --oneline');
    expect(decision.verdict).toBe('allow');
    expect(decision.reason).toContain('the repository sets core.pager, pager.log, overridden');
    await run('git log --oneline', decision);
    expect(existsSync(marker('pager'))).toBe(false);
    expect(existsSync(marker('pager-log'))).toBe(false);
  });

  it.each([
    ['diff.external', ['git diff', 'git show', 'git log -p'], (m: string) => git('config', 'diff.external', `sh -c 'touch ${m}' --`)],
    ['a textconv driver selected by .gitattributes', ['git diff', 'git show', 'git log -p'], async (m: string) => {
      await writeFile(join(h.ws, '.gitattributes'), '*.txt diff=evil\n');
      git('config', 'diff.evil.textconv', `sh -c 'touch ${m}; cat "$1"' --`);
    }],
    ['a filter driver', ['git status', 'git diff'], async (m: string) => {
      await writeFile(join(h.ws, '.gitattributes'), '*.txt filter=evil\n');
      git('config', 'filter.evil.clean', `sh -c 'touch ${m}; cat'`);
    }],
    ['gpg.program', ['git log --show-signature', 'git show'], (m: string) => git('config', 'gpg.program', `sh -c 'touch ${m}'`)],
    ['an include.path holding diff.external', ['git diff'], async (m: string) => {
      await writeFile(join(h.ws, 'included.cfg'), `[diff]\n\texternal = sh -c 'touch ${m}' --\n`);
      git('config', 'include.path', join(h.ws, 'included.cfg'));
    }],
    ['core.worktree', ['git status'], () => git('config', 'core.worktree', '/')],
  ])('%s: a command that would run it asks, naming the key', async (name, commands, plant) => {
    await repository();
    await plant(marker(name));
    for (const command of commands) {
      const decision = await decide(command);
      expect(decision.verdict, `${command}: ${decision.reason}`).toBe('ask');
      expect(decision.reason).toContain("the repository's configuration names a program git would run");
    }
    expect(existsSync(marker(name))).toBe(false);
  });

  it.each([
    ['a man viewer', (m: string) => {
      git('config', 'help.format', 'man');
      git('config', 'man.viewer', 'evil');
      git('config', 'man.evil.cmd', `touch ${m}`);
    }],
    ['a promisor remote whose upload-pack runs', (m: string) => {
      git('config', 'core.repositoryformatversion', '1');
      git('config', 'extensions.partialClone', 'origin');
      git('config', 'remote.origin.promisor', 'true');
      git('config', 'remote.origin.url', h.root);
      git('config', 'remote.origin.uploadpack', `touch ${m}; false`);
    }],
    ['core.sshCommand', (m: string) => git('config', 'core.sshCommand', `touch ${m}; false`)],
  ])('%s: git asks, naming the key', async (name, plant) => {
    await repository();
    plant(marker(name));
    for (const command of ['git show', 'git log -p', 'git status']) {
      const decision = await decide(command);
      expect(decision.verdict, `${command}: ${decision.reason}`).toBe('ask');
      expect(decision.reason).toContain("the repository's configuration names a program git would run");
    }
    expect(existsSync(marker(name))).toBe(false);
  });

  it('--help asks wherever it stands: it opens a manual viewer the configuration can name', async () => {
    await repository();
    for (const command of ['git --help status', 'git log --help', 'git status --help']) {
      const decision = await decide(command);
      expect(decision.verdict, command).toBe('ask');
      expect(decision.reason).toContain('--help opens the manual');
    }
  });

  it('the overrides keep every transport off and submodules unentered', async () => {
    await repository();
    const environment = autoRunEnvironment({ PATH: '/usr/bin' });
    const overrides = Object.keys(environment)
      .filter((name) => name.startsWith('GIT_CONFIG_KEY_'))
      .map((name) => [environment[name], environment[name.replace('KEY', 'VALUE')]]);
    expect(overrides).toEqual(expect.arrayContaining([['protocol.allow', 'never'], ['diff.ignoreSubmodules', 'all'], ['submodule.recurse', 'false']]));
    // A nested repository's filter, which the check of the outer configuration never reads, does not run on status or diff.
    await mkdir(join(h.ws, 'sub'));
    execFileSync('git', ['init', '-q', '.'], { cwd: join(h.ws, 'sub') });
    await writeFile(join(h.ws, 'sub', '.gitattributes'), '*.txt filter=evil\n');
    await writeFile(join(h.ws, 'sub', 'f.txt'), 'x\n');
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', 'add', '.'], { cwd: join(h.ws, 'sub') });
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'sub'], { cwd: join(h.ws, 'sub') });
    execFileSync('git', ['config', 'filter.evil.clean', `sh -c 'touch ${marker('submodule')}; cat'`], { cwd: join(h.ws, 'sub') });
    git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', './sub', 'sub');
    const later = new Date(Date.now() + 10_000);
    await utimes(join(h.ws, 'sub', 'f.txt'), later, later);
    for (const command of ['git status', 'git diff']) {
      const decision = await decide(command);
      expect(decision.verdict, `${command}: ${decision.reason}`).toBe('allow');
      await run(command, decision);
    }
    expect(existsSync(marker('submodule'))).toBe(false);
  });

  it('a glob in git -C or in a cd before git asks: the repository checked must be the one git opens', async () => {
    await repository();
    await mkdir(join(h.ws, 'sub'));
    for (const command of ['git -C s* show', 'cd s* && git show', 'git -C s? log -p']) {
      const decision = await decide(command);
      expect(decision.verdict, command).toBe('ask');
      expect(decision.reason).toContain('a glob in the directory');
    }
  });

  it('paths git reads from the disk stay inside the roots: operands, --contents, and the repository itself', async () => {
    await repository();
    await writeFile(join(h.root, 'secret.txt'), 'secret\n');
    for (const command of ['git diff ../secret.txt a.txt', `git diff ${join(h.root, 'secret.txt')} a.txt`, 'git blame --contents ../secret.txt a.txt', 'git blame --contents=../secret.txt a.txt']) {
      const decision = await decide(command);
      expect(decision.verdict, command).toBe('ask');
      expect(decision.reason, command).toContain('outside the readable roots');
    }
    // Ranges stay revisions.
    expect((await decide('git log HEAD~1..HEAD')).verdict).toBe('allow');
    expect((await decide('git diff HEAD -- a.txt')).verdict).toBe('allow');
    // A repository kept outside the roots, reached by a .git symlink in a directory inside them.
    const outside = join(h.root, 'outside-repo');
    await mkdir(outside);
    execFileSync('git', ['init', '-q', '.'], { cwd: outside });
    await mkdir(join(h.ws, 'linked'));
    await symlink(join(outside, '.git'), join(h.ws, 'linked', '.git'));
    const linked = await decide('git -C linked log');
    expect(linked.verdict).toBe('ask');
    expect(linked.reason).toContain('is kept at');
  });

  it('jq reads only what the classifier checks: --rawfile, --slurpfile, -L and import ask', async () => {
    await writeFile(join(h.ws, 'in.json'), '{}\n');
    for (const command of ['jq -n --rawfile x ../secret \'$x\'', 'jq -n --slurpfile x ../secret.json \'$x\'', 'jq -L /tmp . in.json', 'jq -n \'import "creds" as $c; $c\'']) {
      expect((await decide(command)).verdict, command).toBe('ask');
    }
    expect((await decide('jq . in.json')).verdict).toBe('allow');
  });

  it('gpg.program runs for a signed commit when approved (the vector is real)', async () => {
    await repository();
    const fakeGpg = join(h.root, 'fake-gpg');
    // It reads the data to sign first: git fails the signing when gpg exits before taking it all (a race on a loaded machine).
    await writeFile(fakeGpg, '#!/bin/sh\ncat > /dev/null\necho "[GNUPG:] SIG_CREATED " >&2\nprintf -- "-----BEGIN PGP SIGNATURE-----\\nx\\n-----END PGP SIGNATURE-----\\n"\n');
    await chmod(fakeGpg, 0o755);
    git('-c', `gpg.program=${fakeGpg}`, 'commit', '-qam', 'signed', '-S');
    // gpg.program is run as a program, not through a shell.
    const evil = join(h.root, 'evil-gpg');
    await writeFile(evil, `#!/bin/sh\ntouch ${marker('gpg')}\n`);
    await chmod(evil, 0o755);
    git('config', 'gpg.program', evil);
    expect((await decide('git log --show-signature')).verdict).toBe('ask');
    await run('git log --show-signature -1', approved);
    expect(existsSync(marker('gpg'))).toBe(true);
  });

  it('outside a repository git diff compares any two files, so it asks', async () => {
    const decision = await decide('git diff a.txt b.txt');
    expect(decision.verdict).toBe('ask');
    expect(decision.reason).toContain('not in a repository');
    expect((await decide('git diff --no-index a b')).reason).toContain('--no-index');
  });

  it('without a configuration reader a git command asks', async () => {
    await repository();
    const decision = await decideBashCommand(classifier, h.session.paths, { kind: 'execute', command: 'git status', cwd: h.ws }, 'default');
    expect(decision.verdict).toBe('ask');
  });

  it('a file named git in the repository does not run: PATH is absolute', async () => {
    await repository();
    await writeFile(join(h.ws, 'git'), `#!/bin/sh\ntouch ${marker('path')}\n`);
    await chmod(join(h.ws, 'git'), 0o755);
    const decision = await decide('git status');
    h = { ...h, session: { ...h.session, environment: { ...h.session.environment, PATH: `.:${h.session.environment.PATH ?? ''}` } } };
    await run('git status', decision);
    expect(existsSync(marker('path'))).toBe(false);
  });
});

describe('auto-run reads stay inside the readable roots', () => {
  beforeEach(async () => {
    await writeFile(join(h.root, 'secret.txt'), 'secret');
    await mkdir(join(h.root, 'outside-dir'));
    await writeFile(join(h.ws, 'inside.txt'), 'inside');
    await mkdir(join(h.ws, 'src'));
    await writeFile(join(h.ws, 'src', 'a.ts'), 'a');
    await symlink(join(h.root, 'secret.txt'), join(h.ws, 'leak'));
    await symlink(join(h.root, 'outside-dir'), join(h.ws, 'leak-dir'));
  });

  it.each([
    'cat @OUT/secret.txt',
    'head -n 1 ../secret.txt',
    'cat leak',
    'grep -r secret @OUT',
    'grep -r secret leak-dir',
    'find @OUT -name x',
    'find leak-dir',
    'ls ..',
    'wc -c < ../secret.txt',
    'cd .. && cat secret.txt',
    'cd src && cat ../../secret.txt',
    'cd src && cat ../inside.txt',
    'grep -f ../secret.txt inside.txt',
    'sed -n 1p ../secret.txt',
    'rg x ../secret.txt',
    'git -C .. status',
    'cat ./l*',
    'cat src/../../secret.txt',
    'diff inside.txt ../secret.txt',
    'jq . ../secret.txt',
    'xxd ../secret.txt',
  ])('%s asks', async (command) => {
    const decision = await decide(command.replaceAll('@OUT', h.root));
    expect(decision.verdict, decision.reason).toBe('ask');
  });

  it('names the path in the reason', async () => {
    const decision = await decide(`cat ${h.root}/secret.txt`);
    expect(decision.reason).toContain(`it reads ${h.root}/secret.txt, which is outside the readable roots (outside_root)`);
  });

  it.each(['cat inside.txt', 'head -n 1 src/a.ts', 'grep -r a src', 'find . -name "*.ts"', 'ls', 'wc -l src/*.ts', 'cd src && cat a.ts', 'cat < inside.txt', 'ls missing.txt', 'grep -rn x'])(
    '%s runs on its own',
    async (command) => {
      const decision = await decide(command);
      expect(decision.verdict, decision.reason).toBe('allow');
    },
  );

  it('a read-only root is readable by an auto-run command', async () => {
    const other = await createHarness();
    try {
      await writeFile(join(other.ws, 'shared.txt'), 'shared');
      const withRoot = await createHarness({ readOnlyRoots: [other.ws] });
      try {
        const decision = await decideBashCommand(classifier, withRoot.session.paths, { kind: 'execute', command: `cat ${other.ws}/shared.txt`, cwd: withRoot.ws }, 'default', {
          bashReader: bashReader(withRoot.session.processes, withRoot.session.environment),
        });
        expect(decision.verdict, decision.reason).toBe('allow');
      } finally {
        await withRoot.cleanup();
      }
    } finally {
      await other.cleanup();
    }
  });
});

describe('the acceptEdits gate checks what each operand reaches', () => {
  it('cp into a directory whose entry of that name is a symlink out asks', async () => {
    await writeFile(join(h.ws, 'victim.txt'), 'new');
    await writeFile(join(h.root, 'outside.txt'), 'keep');
    await mkdir(join(h.ws, 'dst'));
    await symlink(join(h.root, 'outside.txt'), join(h.ws, 'dst', 'victim.txt'));
    const decision = await decide('cp victim.txt dst/', 'acceptEdits');
    expect(decision.verdict).toBe('ask');
    expect(decision.reason).toContain('dst/victim.txt is not inside a writable root (outside_root)');
    expect((await decide('cp victim.txt other/', 'acceptEdits')).verdict).toBe('allow');
  });

  it('mv with a glob asks (a match may be a symlink to a directory outside)', async () => {
    await writeFile(join(h.ws, 'x1'), '');
    await symlink(join(h.root), join(h.ws, 'xz'));
    expect((await decide('mv x* ', 'acceptEdits')).verdict).toBe('ask');
  });

  it('moving a read-only root, or a directory that holds one, asks', async () => {
    const ro = join(h.ws, 'parent', 'ro');
    await mkdir(ro, { recursive: true });
    const paths = await PathGuard.create({ workingDirectory: h.ws, readOnlyRoots: [ro], probe: h.session.filesystem });
    const move = (command: string) =>
      decideBashCommand(classifier, paths, { kind: 'execute', command, cwd: h.ws }, 'acceptEdits', { bashReader: bashReader(h.session.processes, h.session.environment) });
    expect((await move('mv parent/ro moved-ro')).reason).toContain('(protected)');
    const holder = await move('mv parent moved-parent');
    expect(holder.verdict).toBe('ask');
    expect(holder.reason).toContain('parent is or holds a root');
    expect((await move('mv parent/other.txt x.txt')).verdict).toBe('allow');
  });

  it('cp -r into an existing tree asks; into a new one runs', async () => {
    await mkdir(join(h.ws, 'src'));
    await mkdir(join(h.ws, 'backup', 'src'), { recursive: true });
    expect((await decide('cp -r src backup', 'acceptEdits')).verdict).toBe('ask');
    expect((await decide('cp -r src fresh', 'acceptEdits')).verdict).toBe('allow');
  });

  it('a write into .git asks in acceptEdits, even through a symlink', async () => {
    await repository();
    await symlink(join(h.ws, '.git', 'hooks'), join(h.ws, 'hooks-link'));
    for (const command of ['touch .git/hooks/post-index-change', 'cp a.txt .git/config', 'touch hooks-link/pre-commit']) {
      const decision = await decide(command, 'acceptEdits');
      expect(decision.verdict, command).toBe('ask');
      expect(decision.reason).toContain('inside .git');
    }
  });

  it('a .. after a symlinked directory asks: the program climbs from where the link leads', async () => {
    await mkdir(join(h.ws, 'deep', 'er'), { recursive: true });
    await symlink(h.ws, join(h.ws, 'deep', 'er', 'up'));
    expect((await decide('rm -f deep/er/up/../../x', 'acceptEdits')).verdict).toBe('ask');
    expect((await decide('cat deep/er/up/../../x')).verdict).toBe('ask');
  });
});

describe('a denied command is not echoed whole', () => {
  it('clips the command in the reason and states its length', async () => {
    const command = `rm ${'x'.repeat(2 * 1024 * 1024)}`;
    const decision = await decide(command);
    expect(decision.verdict).toBe('ask');
    expect(decision.reason.length).toBeLessThan(1000);
    expect(decision.reason).toContain(`(${command.length} characters in all)`);
  });
});
