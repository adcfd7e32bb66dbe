import { TurnScope } from '@openwork/tool-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinTools, type BashData, type BuiltinSession } from '../src/index.ts';
import { createHarness, type Harness } from './harness.ts';

// An embedder of the library gets the same clean environment as the command line: the filter is the bash tool's.
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.cleanup());

async function printed(session: BuiltinSession): Promise<string> {
  const [bash] = builtinTools().filter((tool) => tool.definition.name === 'bash');
  const active = new TurnScope().startCall({ callId: 'env' });
  try {
    const prepared = bash!.prepare(session, { command: 'env' }, 'env');
    if (!('run' in prepared)) throw new Error('invalid');
    const result = await prepared.run(active.context);
    if (result.status !== 'ok') throw new Error(result.error.message);
    return (result.data as BashData).stdout.text;
  } finally {
    active.end();
  }
}

describe('the environment of a command run through the library', () => {
  const secrets = { OPENWORK_MCP_TOKEN: 'tok-91c2', MY_API_KEY: 'key-44d1', Stripe_Secret: 'sec-71aa', GH_TOKEN: 'gh-2b2b' };

  it('leaves out the tools’ own variables and credential-like ones by default, and keeps the rest', async () => {
    const text = await printed({ ...h.session, environment: { ...h.session.environment, ...secrets, PLAIN_SETTING: 'kept' } });
    expect(text).toContain('PLAIN_SETTING=kept');
    for (const value of Object.values(secrets)) expect(text).not.toContain(value);
  });

  it('passes through what the session names, except the tools’ own', async () => {
    const text = await printed({ ...h.session, environment: { ...h.session.environment, ...secrets }, passThroughEnvironment: ['MY_API_KEY', 'OPENWORK_MCP_TOKEN'] });
    expect(text).toContain('MY_API_KEY=key-44d1');
    for (const value of [secrets.OPENWORK_MCP_TOKEN, secrets.Stripe_Secret, secrets.GH_TOKEN]) expect(text).not.toContain(value);
  });
});
