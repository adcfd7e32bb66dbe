import { MemoryFileSystem } from '@openwork/fs-backend/memory';
import { PathGuard } from '@openwork/path-guard';
import type { ToolEffect } from '@openwork/tool-contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { authorizer, decide, parseAllowRule, parseSettings, type AllowRule, type PermissionMode, type PolicyOptions } from '../src/index.ts';

const ws = '/ws';
/** These tables are about the policy; that bash reads each line as written is checked where bash runs (builtin-tools, cli). */
const asWritten = (command: string) => Promise.resolve({ ok: true as const, text: command });
let options: Omit<PolicyOptions, 'mode' | 'allow'>;

beforeAll(async () => {
  const filesystem = new MemoryFileSystem({ files: { [`${ws}/a.txt`]: 'a\n' }, directories: [`${ws}/src`] });
  options = { paths: await PathGuard.create({ workingDirectory: ws, probe: filesystem }), filesystem, bashReader: asWritten };
});

function rule(text: string): AllowRule {
  const parsed = parseAllowRule(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.rule;
}

const bash = (command: string): ToolEffect => ({ kind: 'execute', command, cwd: ws });

async function decideWith(command: string, rules: readonly string[], mode: PermissionMode = 'default') {
  return decide({ definition: { name: 'bash' }, effect: bash(command), signal: new AbortController().signal }, { ...options, mode, allow: rules.map(rule) });
}

describe('allow rules: bash:PREFIX', () => {
  it('reads a rule as the words a command starts with; :* is the same prefix', () => {
    expect(parseAllowRule('bash:npm test')).toEqual({ ok: true, rule: { text: 'bash:npm test', tool: 'bash', prefix: ['npm', 'test'] } });
    expect(parseAllowRule('bash:npm test:*')).toEqual({ ok: true, rule: { text: 'bash:npm test', tool: 'bash', prefix: ['npm', 'test'] } });
    expect(parseAllowRule('bash:  npm   run test:unit ')).toMatchObject({ ok: true, rule: { prefix: ['npm', 'run', 'test:unit'] } });
  });

  it.each([
    ['bash:', /names no command/],
    ['bash:*', /not a plain word/],
    ['bash:npm test; rm -rf /', /"test;" is not a plain word/],
    ['bash:npm $(x)', /not a plain word/],
    ["bash:npm 'test'", /not a plain word/],
    ['Bash(npm test:*)', /only bash rules exist/],
    ['write', /only bash rules exist/],
  ])('refuses %j', (text, message) => {
    const parsed = parseAllowRule(text);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.message).toMatch(message);
  });

  it.each([
    ['npm test', 'allow:bash:npm test'],
    ['npm test -- --watch src/a.test.ts', 'allow:bash:npm test'],
    ["'npm' \"test\"", 'allow:bash:npm test'],
    ['npm test; npm test', 'allow:bash:npm test'],
    ['npm test 2>&1 | head -20', 'allow:bash:npm test, read_only:head'],
    ['ls src && npm test', 'read_only:ls, allow:bash:npm test'],
    ['npm test src/*.ts', 'allow:bash:npm test'],
  ])('%j runs as approved by the rule, which the decision names', async (command, ruleName) => {
    expect(await decideWith(command, ['bash:npm test'])).toMatchObject({ verdict: 'ask', approved: true, rule: ruleName });
  });

  it.each([
    ['npm test; rm -rf /', 'rm changes files'],
    ['npm test && curl x | sh', 'curl is not on the read-only list'],
    ['npm test $(rm x)', 'command substitution'],
    ['npm test `rm x`', 'command substitution'],
    ['npm test > out.txt', 'may write a file'],
    ['npm test >> /etc/profile', 'may write a file'],
    ['npm test\nrm -rf src', 'rm changes files'],
    ['npm test & rm x', 'background'],
    ['(npm test)', 'subshell'],
    ['FOO=1 npm test', 'assignment'],
    ['npm test | tee log.txt', 'tee is not on the read-only list'],
    ['npm testing', 'npm is not on the read-only list'],
    ['npm run test', 'npm is not on the read-only list'],
    ['npm t*st', 'npm is not on the read-only list'],
    ['npm {test,x}', 'brace expansion'],
    ['env npm test', 'env with arguments'],
    ['bash -c "npm test"', 'bash is not on the read-only list'],
    ['npm test < ../secret', 'outside the readable roots'],
  ])('%j does not match: it asks, unapproved', async (command, why) => {
    const decision = await decideWith(command, ['bash:npm test']);
    expect(decision).toMatchObject({ verdict: 'ask', rule: 'ask' });
    expect(decision.approved).toBeUndefined();
    expect(decision.reason).toContain(why);
  });

  it.each(['npm test; rm -rf /', 'npm test && curl x | sh', 'npm test $(rm x)', 'npm test >> /etc/profile'])('%j asks in acceptEdits too', async (command) => {
    expect(await decideWith(command, ['bash:npm test'], 'acceptEdits')).toMatchObject({ verdict: 'ask', rule: 'ask' });
  });

  it('in acceptEdits a redirect of the allowed command to a file inside is a write the gate accepts', async () => {
    expect(await decideWith('npm test > out.txt', ['bash:npm test'], 'acceptEdits')).toMatchObject({ approved: true, rule: 'allow:bash:npm test, filesystem_gate:>' });
  });

  it('every rule counts, whichever the command matches; readOnly still denies', async () => {
    expect(await decideWith('npm test && make build', ['bash:npm test', 'bash:make'])).toMatchObject({ approved: true, rule: 'allow:bash:npm test, allow:bash:make' });
    expect(await decideWith('npm test', ['bash:npm test'], 'readOnly')).toMatchObject({ verdict: 'deny', rule: 'readOnly' });
  });

  it('a line the read-only list allows on its own keeps its own decision', async () => {
    expect(await decideWith('ls src', ['bash:npm test'])).toMatchObject({ verdict: 'allow', rule: 'read_only:ls' });
  });

  it('the authorizer asks nobody for a line a rule approved', async () => {
    let asked = 0;
    const authorize = authorizer({ ...options, mode: 'default', allow: [rule('bash:npm test')], ask: () => ((asked += 1), Promise.resolve('refused')) });
    const signal = new AbortController().signal;
    expect(await authorize({ definition: { name: 'bash' }, effect: bash('npm test'), signal })).toMatchObject({ verdict: 'ask', approved: true, rule: 'allow:bash:npm test' });
    expect(asked).toBe(0);
    expect(await authorize({ definition: { name: 'bash' }, effect: bash('npm test; rm x'), signal })).toMatchObject({ approved: false });
    expect(asked).toBe(1);
  });
});

describe('project settings', () => {
  it('reads {"permissions": {"allow": [...]}}', () => {
    expect(parseSettings('{"permissions":{"allow":["bash:npm test","bash:make:*"]}}')).toEqual({
      ok: true,
      settings: { allow: [rule('bash:npm test'), rule('bash:make')], deny: [] },
    });
    expect(parseSettings('{}')).toEqual({ ok: true, settings: { allow: [], deny: [] } });
  });

  it.each([
    ['{', /not JSON/],
    ['[]', /the file must be object/],
    ['{"allow":["bash:ls"]}', /unknown key "allow"/],
    ['{"permissions":{"ask":["bash:rm"]}}', /unknown key "permissions.ask"; a project's settings are/],
    ['{"trustedProjects":{}}', /unknown key "trustedProjects"/],
    ['{"permissions":{"allow":"bash:ls"}}', /"permissions.allow" must be array/],
    ['{"permissions":{"allow":[1]}}', /"permissions.allow\[0\]" must be string/],
    ['{"permissions":{"allow":["bash:"]}}', /names no command/],
  ])('refuses %s by name', (text, message) => {
    const parsed = parseSettings(text);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.message).toMatch(message);
  });
});
