import { MemoryFileSystem } from '@openwork/fs-backend/memory';
import { PathGuard } from '@openwork/path-guard';
import type { ToolEffect } from '@openwork/tool-contract';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  approveEveryAsk,
  askNobody,
  authorizer,
  isTrustedProject,
  parseAllowRule,
  parseDenyRule,
  parseSettings,
  parseUserSettings,
  passThroughVariables,
  withTrustedProject,
  type AllowRule,
  type AskAnswer,
  type DenyRule,
  type PolicyOptions,
  type PolicyRequest,
} from '../src/index.ts';

const ws = '/ws';
/** This package runs no process: bash's reading of a line is taken to be the line as written. */
const asWritten = (command: string) => Promise.resolve({ ok: true as const, text: command });
const SHA = 'a'.repeat(64);
let options: Omit<PolicyOptions, 'mode'>;

beforeAll(async () => {
  const filesystem = new MemoryFileSystem({ files: { [`${ws}/a.txt`]: 'a\n' }, directories: [`${ws}/src`] });
  options = { paths: await PathGuard.create({ workingDirectory: ws, probe: filesystem }), filesystem, bashReader: asWritten };
});

function allow(text: string): AllowRule {
  const parsed = parseAllowRule(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.rule;
}

function deny(text: string, source?: string): DenyRule {
  const parsed = parseDenyRule(text, source);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.rule;
}

const bash = (command: string): PolicyRequest => ({ definition: { name: 'bash' }, effect: { kind: 'execute', command, cwd: ws } satisfies ToolEffect, signal: new AbortController().signal });
const write = (path: string): PolicyRequest => ({ definition: { name: 'write' }, effect: { kind: 'write', paths: [path] }, signal: new AbortController().signal });

describe('the user settings file', () => {
  it('reads rules, the variables passed through and the trusted folders', () => {
    const parsed = parseUserSettings(
      JSON.stringify({
        permissions: { allow: ['bash:npm test'], deny: ['bash:git push', 'write'] },
        environment: { passThrough: ['GITHUB_TOKEN'] },
        trustedProjects: { '/ws': { sha256: SHA, trustedAt: '2025-01-01T00:00:00.000Z' } },
      }),
      '/home/u/.config/openwork/settings.json',
    );
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.settings.allow).toEqual([allow('bash:npm test')]);
    expect(parsed.settings.deny).toEqual([deny('bash:git push', '/home/u/.config/openwork/settings.json'), deny('write', '/home/u/.config/openwork/settings.json')]);
    expect(passThroughVariables(parsed.settings)).toEqual(['GITHUB_TOKEN']);
    expect([isTrustedProject(parsed.settings, '/ws', SHA), isTrustedProject(parsed.settings, '/ws', 'b'.repeat(64)), isTrustedProject(parsed.settings, '/other', SHA)]).toEqual([true, false, false]);
    expect(parseUserSettings('{}')).toEqual({ ok: true, settings: { allow: [], deny: [], passThrough: [], trustedProjects: {} } });
  });

  it.each([
    ['{', /not JSON/],
    ['{"permission":{}}', /^unknown key "permission"; the user settings are/],
    ['{"permissions":{"ask":[]}}', /^unknown key "permissions.ask"/],
    ['{"environment":{"passthrough":[]}}', /^unknown key "environment.passthrough"/],
    ['{"environment":{"passThrough":["A B"]}}', /"environment.passThrough\[0\]" must match pattern/],
    ['{"trustedProjects":{"/ws":{"sha256":"abc","trustedAt":"x"}}}', /"trustedProjects\['\/ws'\].sha256" must match pattern/],
    ['{"trustedProjects":{"/ws":{"sha256":"' + SHA + '","trustedAt":"x","by":"me"}}}', /unknown key "trustedProjects\['\/ws'\].by"/],
    ['{"permissions":{"deny":["Bash(rm)"]}}', /"permissions.deny": "Bash\(rm\)": a deny rule is a tool's name/],
    ['{"permissions":{"deny":["write:a.txt"]}}', /only bash rules take words/],
    ['{"permissions":{"allow":["bash:"]}}', /names no command/],
  ])('refuses %s by name', (text, message) => {
    const parsed = parseUserSettings(text);
    expect(parsed.ok ? '' : parsed.message).toMatch(message);
  });

  it('records a trusted folder and keeps every other key as it was', () => {
    const before = JSON.stringify({ $schema: 'x', permissions: { deny: ['bash:rm'] }, trustedProjects: { '/a': { sha256: SHA, trustedAt: 't' } } });
    const after = JSON.parse(withTrustedProject(before, '/ws', { sha256: 'b'.repeat(64), trustedAt: 'now' })) as unknown;
    expect(after).toEqual({
      $schema: 'x',
      permissions: { deny: ['bash:rm'] },
      trustedProjects: { '/a': { sha256: SHA, trustedAt: 't' }, '/ws': { sha256: 'b'.repeat(64), trustedAt: 'now' } },
    });
    expect(JSON.parse(withTrustedProject(undefined, '/ws', { sha256: SHA, trustedAt: 'now' }))).toEqual({ trustedProjects: { '/ws': { sha256: SHA, trustedAt: 'now' } } });
    expect(() => withTrustedProject('{"oops":1}', '/ws', { sha256: SHA, trustedAt: 'now' })).toThrow(/unknown key "oops"/);
  });

  it('a project may add deny rules too', () => {
    expect(parseSettings('{"permissions":{"deny":["bash:curl","edit"]}}', '/ws/.openwork/settings.json')).toEqual({
      ok: true,
      settings: { allow: [], deny: [deny('bash:curl', '/ws/.openwork/settings.json'), deny('edit', '/ws/.openwork/settings.json')] },
    });
  });
});

describe('deny rules', () => {
  it.each([
    ['rm -rf src', true],
    ['ls; rm a.txt', true],
    ['echo $(rm a.txt)', true],
    ['r\\m a.txt', true],
    ['"rm" a.txt', true],
    ['/bin/rm a.txt', true],
    ['FOO=1 rm a.txt', true],
    ['ls && (cd src; rm x)', true],
    ['rmdir src', false],
    ['cat rm.txt', false],
  ])('bash:rm refuses %s: %s', async (command, refused) => {
    const authorize = authorizer({ ...options, mode: 'acceptEdits', deny: [deny('bash:rm', '/u/settings.json')], ask: approveEveryAsk });
    const decision = await authorize(bash(command));
    expect(decision.verdict === 'deny').toBe(refused);
    if (refused) expect(decision).toEqual({ verdict: 'deny', rule: 'deny:bash:rm', reason: expect.stringContaining('which the deny rule "bash:rm" in /u/settings.json refuses') as unknown });
  });

  it('win over an allow rule and over --yes, and a tool name refuses every call of it', async () => {
    const authorize = authorizer({ ...options, mode: 'acceptEdits', allow: [allow('bash:git push')], deny: [deny('bash:git push'), deny('write')], ask: approveEveryAsk });
    expect(await authorize(bash('git push origin main'))).toMatchObject({ verdict: 'deny', rule: 'deny:bash:git push' });
    expect(await authorize(write('a.txt'))).toEqual({ verdict: 'deny', rule: 'deny:write', reason: 'write was called, which the deny rule "write" refuses' });
    expect(await authorize(bash('ls src'))).toMatchObject({ verdict: 'allow' });
  });
});

describe('a project folder not trusted yet', () => {
  const project = [allow('bash:touch')];
  const NOTE = 'the allow rules of /ws/.openwork/settings.json were ignored';

  function trustAnswering(answer: AskAnswer) {
    let asked = 0;
    return { count: () => asked, trust: () => ((asked += 1), Promise.resolve(answer)) };
  }

  it('is asked about at the first call its rules would approve; trusted, they apply from then on', async () => {
    const person = trustAnswering('approved');
    const authorize = authorizer({ ...options, mode: 'default', untrusted: { allow: project, trust: person.trust, ignoredNote: NOTE }, ask: askNobody });
    expect(await authorize(bash('ls'))).toMatchObject({ verdict: 'allow' });
    expect(await authorize(bash('curl x'))).toMatchObject({ approved: false });
    expect(person.count()).toBe(0);
    expect(await authorize(bash('touch a'))).toMatchObject({ approved: true, rule: 'allow:bash:touch' });
    expect(await authorize(bash('touch b'))).toMatchObject({ approved: true, rule: 'allow:bash:touch' });
    expect(person.count()).toBe(1);
  });

  it('with nobody to ask, its rules are ignored and the reason says so; --yes approves the call but trusts nothing', async () => {
    const person = trustAnswering('unanswered');
    const unanswered = await authorizer({ ...options, mode: 'default', untrusted: { allow: project, trust: person.trust, ignoredNote: NOTE }, ask: askNobody })(bash('touch a'));
    expect(unanswered).toMatchObject({ verdict: 'ask', approved: false, rule: 'ask' });
    expect(unanswered.reason).toContain(NOTE);
    const yes = await authorizer({ ...options, mode: 'default', untrusted: { allow: project, trust: person.trust, ignoredNote: NOTE }, ask: approveEveryAsk })(bash('touch a'));
    expect(yes).toMatchObject({ approved: true, rule: 'ask' });
  });

  it('a person’s no holds for the session: the calls are asked one by one', async () => {
    const person = trustAnswering('refused');
    let asks = 0;
    const authorize = authorizer({ ...options, mode: 'default', untrusted: { allow: project, trust: person.trust, ignoredNote: NOTE }, ask: () => ((asks += 1), Promise.resolve('refused')) });
    expect(await authorize(bash('touch a'))).toMatchObject({ approved: false, rule: 'ask' });
    expect(await authorize(bash('touch b'))).toMatchObject({ approved: false, rule: 'ask' });
    expect([person.count(), asks]).toEqual([1, 2]);
  });
});
