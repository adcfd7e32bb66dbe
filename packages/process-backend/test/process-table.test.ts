import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { groupAlive } from '../src/common/group-liveness.ts';
import { terminateGroup } from '../src/common/terminate-group.ts';

const marker = `sleep 36.7${process.pid}`;

describe('group termination', () => {
  it('ends a whole detached group and then sees it as gone', async () => {
    const child = spawn('bash', ['--noprofile', '--norc', '-c', `${marker} & ${marker} & wait`], { detached: true, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise((resolve) => child.once('spawn', resolve));
    const pgid = child.pid ?? 0;
    expect(await groupAlive(pgid)).toBe(true);
    expect(await terminateGroup(pgid, { graceMs: 300 })).toBe('gone');
    expect(await groupAlive(pgid)).toBe(false);
    await exited;
  });

  it('counts a group that no longer exists as gone at once', async () => {
    const child = spawn('true', [], { detached: true, stdio: 'ignore' });
    await new Promise((resolve) => child.once('exit', resolve));
    expect(await groupAlive(child.pid ?? 0)).toBe(false);
    expect(await terminateGroup(child.pid ?? 0, { graceMs: 300 })).toBe('gone');
  });
});
