import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { NodeFileSystem } from '@openwork/fs-backend/node';
import { PathGuard } from '@openwork/path-guard';
import { PipeProcessBackend } from '@openwork/process-backend/pipe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashReader, createCommandClassifier, decideBashCommand, READ_ONLY_PROGRAMS } from '../src/index.ts';
import type { CommandClassifier } from '../src/index.ts';

type Mode = 'default' | 'acceptEdits';
/** [command, mode, verdict, the rule when allowed or a fragment of the reason when it asks] */
type Case = readonly [string, Mode, 'allow' | 'ask', string];

const D: Mode = 'default';
const E: Mode = 'acceptEdits';

const CASES: readonly Case[] = [
  // The read-only list, with its rules.
  ['ls -la', D, 'allow', 'read_only:ls'],
  ['ls -la src | head -20', D, 'allow', 'read_only:ls, read_only:head'],
  ['cat README.md', D, 'allow', 'read_only:cat'],
  ['head -n 5 a.txt && tail -5 a.txt', D, 'allow', 'read_only:head, read_only:tail'],
  ['wc -l src/*.ts', D, 'allow', 'read_only:wc'],
  ['pwd; echo done', D, 'allow', 'read_only:pwd, read_only:echo'],
  ['grep -rn "TODO" src || true', D, 'allow', 'read_only:grep, read_only:true'],
  ["rg -n 'fn main' --type rust", D, 'allow', 'read_only:rg'],
  ['find . -name "*.ts" -type f -maxdepth 3', D, 'allow', 'read_only:find'],
  ['find src \\( -name a -o -name b \\) -print', D, 'allow', 'read_only:find'],
  ['git status --short', D, 'allow', 'read_only:git status'],
  ['git log --oneline -5', D, 'allow', 'read_only:git log'],
  ['git --no-pager diff HEAD~1 -- src', D, 'allow', 'read_only:git diff'],
  ['git show HEAD:README.md', D, 'allow', 'read_only:git show'],
  ["sed -n '1,20p' file.txt", D, 'allow', 'read_only:sed'],
  ["sed -e 's/foo/bar/g' -e '/^#/d' a", D, 'allow', 'read_only:sed'],
  ['sort -u names.txt | uniq -c', D, 'allow', 'read_only:sort, read_only:uniq'],
  ['cat a.txt 2>/dev/null', D, 'allow', 'read_only:cat'],
  ['ls missing 2>&1', D, 'allow', 'read_only:ls'],
  ['wc -c < input.txt', D, 'allow', 'read_only:wc'],
  ["echo 'rm -rf /'", D, 'allow', 'read_only:echo'],
  ['echo "$HOME is \\$HOME"', D, 'ask', 'expansion'],
  ["jq -r '.name' package.json", D, 'allow', 'read_only:jq'],
  ['cd packages && ls', D, 'allow', 'read_only:cd, read_only:ls'],
  ['date +%Y-%m-%d', D, 'allow', 'read_only:date'],
  ['\\ls -l', D, 'allow', 'read_only:ls'],
  ['ls # a comment', D, 'allow', 'read_only:ls'],

  // rm and friends hidden in substitutions, lists and redirections.
  ['echo $(rm -rf /)', D, 'ask', 'command substitution'],
  ['echo `rm -rf /`', D, 'ask', 'command substitution'],
  ['echo "$(rm -rf /)"', D, 'ask', 'command substitution'],
  ['ls; rm -rf /', D, 'ask', 'rm changes files'],
  ['ls && rm -rf build', D, 'ask', 'rm changes files'],
  ['ls || rm x', D, 'ask', 'rm changes files'],
  ['cat <(rm x)', D, 'ask', 'process substitution'],
  ['echo hi > out.txt', D, 'ask', 'may write a file'],
  ['echo hi >> out.txt', D, 'ask', 'may write a file'],
  ['ls &> listing.txt', D, 'ask', 'may write a file'],
  // A here-document or here-string in which bash expands nothing is data on standard input.
  ['cat <<EOF\nhello\nEOF', D, 'allow', 'read_only:cat'],
  ["cat <<'EOF'\n$(rm -rf ~) `id` $HOME \\x\nEOF", D, 'allow', 'read_only:cat'],
  ['cat <<"EOF"\n$(id)\nEOF', D, 'allow', 'read_only:cat'],
  ['cat <<EOF\n$(rm -rf ~)\nEOF', D, 'ask', 'here-document whose body has a $'],
  ['cat <<EOF\n`id`\nEOF', D, 'ask', 'here-document whose body has a $'],
  ['cat <<EOF\n$HOME\nEOF', D, 'ask', 'here-document whose body has a $'],
  ['cat <<EOF\na \\x\nEOF', D, 'ask', 'here-document whose body has a $'],
  ['cat <<EOF && rm x\nhi\nEOF', D, 'ask', 'rm changes files'],
  ['cat <<EOF | sh\nrm x\nEOF', D, 'ask', 'sh is not on the read-only list'],
  ['cat <<EOF || rm x\nhi\nEOF', D, 'ask', 'rm changes files'],
  ["bash <<'EOF'\nrm x\nEOF", D, 'ask', 'bash is not on the read-only list'],
  ['cat <<< "hello"', D, 'allow', 'read_only:cat'],
  ['cat <<< "$(id)"', D, 'ask', 'command substitution'],
  ['cat <<< $HOME', D, 'ask', '$'],
  // bash expands no glob in a here-string: the word is the text.
  ['cat <<< *', D, 'allow', 'read_only:cat'],
  ['ls &', D, 'ask', 'background'],
  ['(rm -rf build)', D, 'ask', 'subshell'],
  ['{ rm x; }', D, 'ask', 'group'],
  ['f() { rm x; }; f', D, 'ask', 'function'],
  ['if true; then rm x; fi', D, 'ask', 'if statement'],
  ['for f in *; do rm "$f"; done', D, 'ask', 'loop'],

  // Flags that turn a reader into a writer or a runner.
  ['find . -delete', D, 'ask', 'find -delete removes'],
  ['find . -name "*.o" -exec rm {} \\;', D, 'ask', 'find -exec runs'],
  ['find . -execdir rm {} +', D, 'ask', 'find -execdir runs'],
  ['find . -ok rm {} \\;', D, 'ask', 'find -ok runs'],
  ['find . -fprint out.txt', D, 'ask', 'find -fprint writes'],
  ['sed -i s/a/b/ file', D, 'ask', 'sed -i edits'],
  ['sed --in-place=.bak s/a/b/ file', D, 'ask', 'sed -i edits files in place'],
  ["sed 's/a/b/w out.txt' file", D, 'ask', 'writes a file'],
  ["sed '1w out.txt' file", D, 'ask', 'sed w writes'],
  ["sed 's/.*/id/e' file", D, 'ask', 'runs the pattern space'],
  ['sed -f script.sed file', D, 'ask', 'sed -f reads a script'],
  ['rg --pre ./evil.sh pattern', D, 'ask', 'rg --pre runs'],
  ['rg --pre=./evil.sh pattern', D, 'ask', 'rg --pre runs'],
  ['rg -z pattern', D, 'ask', 'decompression'],
  ['git -c core.pager=evil log', D, 'ask', 'git -c sets configuration'],
  ['git -ccore.pager=evil log', D, 'ask', 'git -c sets configuration'],
  ['git --config-env=core.pager=X log', D, 'ask', 'config-env'],
  ['git log --output=/tmp/x', D, 'ask', 'writes its output to a file'],
  ['git diff --output /tmp/x', D, 'ask', 'writes its output to a file'],
  ['git diff --ext-diff', D, 'ask', 'external diff'],
  ['git -p log', D, 'ask', 'pager'],
  ['git push origin main', D, 'ask', 'git push is not on the read-only list'],
  // An ask names the word and what would make it run: an allow rule for its first words, or the mode.
  ['python3 x.py', D, 'ask', 'python3 is not on the read-only list; an allow rule "bash:python3" would let it run'],
  ['git checkout main', E, 'ask', 'git checkout is not on the read-only list (status, log, diff, show, ls-files, rev-parse, blame); an allow rule "bash:git checkout" would let it run'],
  ['chmod +x run.sh', E, 'ask', 'chmod is not on the read-only list or the filesystem gate; an allow rule "bash:chmod" would let it run'],
  ["sed 'r other.txt' a.txt", D, 'ask', 'sed r reads a file into the output; an allow rule "bash:sed" would let it run'],
  ['*.sh --run', D, 'ask', 'the program name is a glob (in'],
  ['sed -i s/a/b/ f.txt', D, 'ask', 'sed -i edits files in place; it runs on its own only in acceptEdits mode'],
  ['git commit -m x', D, 'ask', 'git commit is not on the read-only list'],
  ['sort -o out.txt in.txt', D, 'ask', 'sort -o writes'],
  ['sort --compress-program=sh in.txt', D, 'ask', 'runs another program'],
  ['uniq in.txt out.txt', D, 'ask', 'second operand'],
  ['tree -o out.txt', D, 'ask', 'tree -o writes'],
  ['date -s "2020-01-01"', D, 'ask', 'sets the system clock'],
  ['printf -v x hi', D, 'ask', 'assigns a shell variable'],
  ['ls --unknown-flag', D, 'ask', 'not a known-safe flag'],

  // Wrappers that run their arguments.
  ['env rm x', D, 'ask', 'env with arguments'],
  ['xargs rm < list.txt', D, 'ask', 'xargs is not on the read-only list'],
  ['ls | xargs rm', D, 'ask', 'xargs is not on the read-only list'],
  ['sudo ls', D, 'ask', 'sudo is not on the read-only list'],
  ['timeout 5 ls', D, 'ask', 'timeout is not on the read-only list'],
  ['nohup ls', D, 'ask', 'nohup is not on the read-only list'],
  ['echo hi | tee out.txt', D, 'ask', 'tee is not on the read-only list'],
  ['bash -c "rm x"', D, 'ask', 'bash is not on the read-only list'],
  ['sh -c ls', D, 'ask', 'sh is not on the read-only list'],
  ['eval "rm x"', D, 'ask', 'eval is not on the read-only list'],
  ['source ./script.sh', D, 'ask', 'source is not on the read-only list'],
  ['. ./script.sh', D, 'ask', '. is not on the read-only list'],
  ['exec ls', D, 'ask', 'exec is not on the read-only list'],
  ['command rm x', D, 'ask', 'command is not on the read-only list'],
  ["awk '{ system(\"rm x\") }' f", D, 'ask', 'awk is not on the read-only list'],
  ['node -e "1"', D, 'ask', 'node is not on the read-only list'],

  // Variables and quoting tricks.
  ['$CMD file', D, 'ask', 'expansion'],
  ['ls $DIR', D, 'ask', 'expansion'],
  ['ls ${DIR}', D, 'ask', 'expansion'],
  ['X=1 ls', D, 'ask', 'assignment'],
  ['export PAGER=evil', D, 'ask', 'declaration'],
  ["'r''m' -rf /", D, 'ask', 'rm changes files'],
  ['r\\m -rf /', D, 'ask', 'rm changes files'],
  ['"rm" x', D, 'ask', 'rm changes files'],
  ["$'\\x72m' x", D, 'ask', 'quoting'],
  ['find . {-delete,}', D, 'ask', 'brace expansion'],
  ['rg x *', D, 'ask', 'starts with a glob'],
  ['ls *', D, 'ask', 'starts with a glob'],
  ['ls ./*', D, 'allow', 'read_only:ls'],
  ['echo $((1+2))', D, 'ask', 'arithmetic'],
  ['ls "unterminated', D, 'ask', 'could not read'],
  ['ls |& cat', D, 'ask', '|&'],
  ['! ls', D, 'ask', 'negated'],
  ['[ -f x ] && ls', D, 'ask', 'test'],
  ['', D, 'ask', 'empty'],
  ['ls\nrm x', D, 'ask', 'rm changes files'],

  // The acceptEdits filesystem gate (paths are checked by decideBashCommand).
  ['mkdir -p build/out', E, 'allow', 'filesystem_gate:mkdir'],
  ['touch notes.md', E, 'allow', 'filesystem_gate:touch'],
  ['cp -r src backup && ls', E, 'allow', 'filesystem_gate:cp, read_only:ls'],
  // cp -r copies symlinks as they are: a relative one copied elsewhere can lead out of the roots.
  ['cp -r src backup && ls backup', E, 'ask', 'read through what that one just made'],
  ['mv a.txt b.txt', E, 'allow', 'filesystem_gate:mv'],
  ['rm -f build/*.o', E, 'allow', 'filesystem_gate:rm'],
  ['rm -rf build', E, 'allow', 'filesystem_gate:rm'],
  ['mkdir -p build', D, 'ask', 'mkdir changes files; it runs on its own only in acceptEdits mode'],
  ['rm --no-preserve-root -rf /', E, 'ask', 'never run on its own'],
  ['rm -rf ~/x', E, 'ask', '~'],
  ['rm -rf *', E, 'ask', 'starts with a glob'],
  ['rm -rf src/*/build', E, 'ask', 'before the last /'],
  ['cp -l a b', E, 'ask', 'hard links'],
  ['cp -s a b', E, 'ask', 'symbolic links'],
  ['ln -s /etc/passwd x', E, 'ask', 'ln is not on the read-only list or the filesystem gate'],
  ['chmod +x a.sh', E, 'ask', 'chmod is not on the read-only list or the filesystem gate'],
  ['cd /tmp && rm -rf x', E, 'ask', 'a cd in the same line'],
  ['rm', E, 'ask', 'without an operand'],
  ['touch -r /etc/passwd x', E, 'ask', 'touch -r'],
  ['rm $(cat list)', E, 'ask', 'command substitution'],
  // A redirect that writes a file is a write the gate checks, in acceptEdits only.
  ['mv a b > log.txt', E, 'allow', 'filesystem_gate:mv, filesystem_gate:>'],
  ['echo hi > out.txt', E, 'allow', 'read_only:echo, filesystem_gate:>'],
  ["cat <<'EOF' > src/new.py\nx = $y\nEOF", E, 'allow', 'read_only:cat, filesystem_gate:>'],
  ["cat > src/new.py <<'EOF'\nx = $y\nEOF", E, 'allow', 'read_only:cat, filesystem_gate:>'],
  ['echo hi >> notes.txt 2> err.log', E, 'allow', 'read_only:echo, filesystem_gate:>'],
  ["cat <<'EOF' > src/new.py\nx\nEOF", D, 'ask', 'may write a file'],
  ['echo hi > *.txt', E, 'ask', 'glob in the target'],
  ['echo hi > ~/.bashrc', E, 'ask', '~'],
  ['echo hi > {a,b}', E, 'ask', 'brace'],
  ['echo hi >& out.txt', E, 'ask', 'may write a file'],
  ['echo hi 1<> out.txt', E, 'ask', 'could not read'],
  ['cp a b && echo hi > b/x', E, 'ask', 'after a cp or mv'],
  ['cd sub && echo hi > x', E, 'ask', 'a cd in the same line'],
  // sed -i: the same script checks as a printing sed, each file a write the gate checks.
  ["sed -i 's/a/b/' src/a.py", E, 'allow', 'filesystem_gate:sed -i'],
  ["sed -i.bak -e '3d' src/a.py", E, 'allow', 'filesystem_gate:sed -i'],
  ["sed -i '/import os/a import sys' src/a.py", E, 'allow', 'filesystem_gate:sed -i'],
  ["sed -i 's/a/b/' src/a.py", D, 'ask', 'sed -i edits files in place'],
  ["sed -i 's/a/id/e' src/a.py", E, 'ask', 's///e'],
  ["sed -i 's/a/b/w out' src/a.py", E, 'ask', 's///w'],
  ["sed -i '1w /tmp/out' src/a.py", E, 'ask', 'sed w writes a file'],
  ["sed -i '1e id' src/a.py", E, 'ask', 'sed e runs a command'],
  ["sed -i '1r /etc/passwd' src/a.py", E, 'ask', 'sed r reads a file'],
  ['sed -i -f script.sed src/a.py', E, 'ask', 'sed -f'],
  ["sed -i 's/a/b/' src/*.py", E, 'ask', 'glob'],
  ["sed -i'/x' 's/a/b/' src/a.py", E, 'ask', 'backup suffix'],
  ["sed -i 's/a/b/'", E, 'ask', 'sed -i without a file'],
  ["sed -ni 's/a/b/p' src/a.py", E, 'ask', 'sed -i'],
];

let classifier: CommandClassifier;
beforeAll(async () => {
  classifier = await createCommandClassifier();
});

describe('the bash effect classifier (docs/design.md §8)', () => {
  it(`has a case table of at least 60 commands (${CASES.length})`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(CASES.map(([command, mode]) => `${mode}\u0000${command}`)).size).toBe(CASES.length);
  });

  it.each(CASES)('%j (%s) → %s: %s', (command, mode, verdict, detail) => {
    const result = classifier.classify(command, { mode });
    expect(result.verdict, result.reason).toBe(verdict);
    if (verdict === 'allow') {
      expect(result.rule).toBe(detail);
      expect(result.list).toBe(detail.includes('filesystem_gate') ? 'filesystem_gate' : 'read_only');
    } else {
      expect(result.rule).toBe('ask');
      expect(result.list).toBeNull();
      expect(result.reason).toContain(detail);
    }
  });

  it('the allow rule an ask names is the one that lets the command run', () => {
    for (const command of ['python3 x.py', 'git checkout main', "sed 'r other.txt' a.txt", 'ls {a,b}', 'sleep 1', 'git commit -m x', 'npm test']) {
      const asked = classifier.classify(command, { mode: 'default' });
      const named = /an allow rule "bash:([^"]+)" would let it run/.exec(asked.reason)?.[1];
      expect(named, asked.reason).toBeDefined();
      const rule = { name: `allow:bash:${named ?? ''}`, prefix: (named ?? '').split(' ') };
      expect(classifier.classify(command, { mode: 'default', allowRules: [rule] })).toMatchObject({ verdict: 'allow', list: 'allow_rule' });
    }
  });

  it('returns the words each command receives, after quote removal', () => {
    const result = classifier.classify(`grep -n 'a b' "c d" e\\"f | wc -l`, { mode: 'default' });
    expect(result.commands.map((command) => command.argv)).toEqual([
      ['grep', '-n', 'a b', 'c d', 'e"f'],
      ['wc', '-l'],
    ]);
  });

  it('a backslash before a blank or a line end asks: bash joins or splits those words where the tree may not', () => {
    for (const command of ['grep -n e\\ f x', 'git log -\\\n-output=pwned', 'sort x -\\\noREADME.md', 'cat .\\\n./secret', 'uniq a.txt \\ \t-c', 'ls a\\\tb']) {
      const result = classifier.classify(command, { mode: 'acceptEdits' });
      expect(result.verdict, command).toBe('ask');
      expect(result.reason, command).toMatch(/backslash/);
    }
    // Quotes are not followed: a quote inside a comment would otherwise hide the continuation after it.
    expect(classifier.classify("ls #'\nls \\\n\\\t\t#\\", { mode: 'default' }).verdict).toBe('ask');
  });

  it('collects the paths of gate commands, and the directory of a glob operand', () => {
    const result = classifier.classify('mkdir -p out/a && rm -r build/*.o && cp -t out src/x.ts', { mode: 'acceptEdits' });
    expect(result.writePaths).toEqual(['out/a', 'build', 'src/x.ts', 'out']);
    expect(result.recursivePaths).toEqual(['build']);
  });

  it('parts of one word the tree reads as two, and a word holding a line break, ask', () => {
    for (const command of ["sort a.txt '-'\\oREADME.md", "rg x '-'\\-pre=sh", "git log '-'\\-output=pwned", 'ls\n\\rm -rf x', 'echo x\n\\sh -c id']) {
      expect(classifier.classify(command, { mode: 'acceptEdits' }).verdict, command).toBe('ask');
    }
    expect(classifier.classify("grep 'a'b x", { mode: 'default' }).verdict).toBe('allow');
  });

  it('a gate command after a cp or mv in the same line asks: it could act through a symlink that one just made', () => {
    for (const command of ['cp -a tmpl new && cp p.txt new/evil/', 'cp -r tmpl new2 && touch new2/evil/X', 'cp -rd tmpl new4 && rm new4/evil/victim.txt', 'cp -P d/up up2 && touch up2/X', 'mv a b; rm b/c']) {
      const result = classifier.classify(command, { mode: 'acceptEdits' });
      expect(result.verdict, command).toBe('ask');
      expect(result.reason, command).toContain('after a cp or mv in the same line');
    }
    expect(classifier.classify('cp -rT srcd dst', { mode: 'acceptEdits' }).reason).toContain('-T with a recursive copy');
    expect(classifier.classify('mkdir -p a && touch a/b && cp a/b c', { mode: 'acceptEdits' }).verdict).toBe('allow');
  });

  it('never allows a line in which any command is off the read-only list (property)', () => {
    const allowed = ['ls', 'cat a', 'git status', 'echo hi', 'wc -l x'];
    const denied = ['rm x', 'tee f', 'bash -c ls', 'xargs rm', 'env rm x', 'echo $(id)', 'echo hi > f', 'find . -delete', 'sed -i s/a/b/ f'];
    const separator = fc.constantFrom(' && ', ' || ', '; ', ' | ', '\n');
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...allowed), { maxLength: 4 }), fc.constantFrom(...denied), fc.array(fc.constantFrom(...allowed), { maxLength: 4 }), separator, (before, bad, after, join) => {
        const command = [...before, bad, ...after].join(join);
        expect(classifier.classify(command, { mode: 'default' }).verdict).toBe('ask');
      }),
      { numRuns: 300 },
    );
  });

  it('keeps its read-only list closed: no program that runs or writes is on it', () => {
    for (const program of ['rm', 'mv', 'cp', 'tee', 'xargs', 'bash', 'sh', 'eval', 'source', 'awk', 'perl', 'python', 'node', 'sudo', 'timeout', 'nohup', 'ln', 'chmod', 'dd']) {
      expect(Object.hasOwn(READ_ONLY_PROGRAMS, program), program).toBe(false);
    }
  });
});

describe('the filesystem gate checks its paths with the path guard', () => {
  let root: string;
  let outside: string;
  let paths: PathGuard;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'ow-gate-'));
    outside = await mkdtemp(join(tmpdir(), 'ow-gate-outside-'));
    await mkdir(join(root, 'work'));
    await mkdir(join(root, 'build'));
    await writeFile(join(outside, 'secret.txt'), 'keep');
    await symlink(outside, join(root, 'work', 'escape'));
    await symlink(join(outside, 'secret.txt'), join(root, 'work', 'secret-link'));
    paths = await PathGuard.create({ workingDirectory: join(root, 'work'), writableRoots: [join(root, 'build')], probe: new NodeFileSystem() });
  });

  const processes = new PipeProcessBackend();
  afterAll(async () => {
    await processes.dispose();
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  const decide = (command: string, mode: Mode = 'acceptEdits') =>
    decideBashCommand(classifier, paths, { kind: 'execute', command, cwd: paths.workingDirectory }, mode, { bashReader: bashReader(processes, { PATH: process.env.PATH ?? '' }) });

  it('allows a gate command whose paths are all inside writable roots, with the rule', async () => {
    expect(await decide(`mkdir -p out && touch out/a && rm -rf ${join(root, 'build', 'cache')}`)).toEqual({
      verdict: 'allow',
      reason: 'every command is on the read-only list or the acceptEdits filesystem gate',
      rule: 'filesystem_gate:mkdir, filesystem_gate:touch, filesystem_gate:rm',
    });
  });

  it.each([
    ['a relative path that climbs out', 'rm -f ../../x', 'outside_root'],
    ['an absolute path outside', 'touch @OUT/new.txt', 'outside_root'],
    ['a symlinked directory leading outside', 'rm -f escape/secret.txt', 'outside_root'],
    ['a symlink to a file outside', 'cp a.txt secret-link', 'outside_root'],
    ['a glob in a directory outside', 'rm -f @OUT/*.txt', 'outside_root'],
    ['the source of a move from outside', 'mv @OUT/secret.txt here.txt', 'outside_root'],
  ])('asks for %s', async (_name, command, kind) => {
    const decision = await decide(command.replaceAll('@OUT', outside));
    expect(decision.verdict).toBe('ask');
    expect(decision.rule).toBe('ask');
    expect(decision.reason).toContain(`not inside a writable root (${kind})`);
  });

  it('asks before rm -r of a root, whatever the spelling', async () => {
    for (const command of ['rm -rf .', 'rm -r ./', `rm -rf ${join(root, 'build')}`, 'rm -R ../work']) {
      const decision = await decide(command);
      expect(decision.verdict, command).toBe('ask');
      expect(decision.reason, command).toContain('would move or remove');
    }
    expect((await decide('rm -f .')).verdict).toBe('allow');
  });

  it('a read-only command is allowed in either mode; the gate only in acceptEdits', async () => {
    expect(await decide('ls -la', 'default')).toMatchObject({ verdict: 'allow', rule: 'read_only:ls' });
    expect(await decide('touch x', 'default')).toMatchObject({ verdict: 'ask', rule: 'ask' });
  });
});
