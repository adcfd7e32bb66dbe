// A product that takes the packages one by one from their tarballs: it builds
// a toolset, decides each call with the permission policy, calls read,
// bash and grep, then prints what came back.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinTools, DEFAULT_LIMITS, ReadLedger } from '@openwork/builtin-tools';
import { NodeFileSystem } from '@openwork/fs-backend/node';
import { PathGuard } from '@openwork/path-guard';
import { askNobody, authorizer, sessionPolicy } from '@openwork/permission-policy';
import { PipeProcessBackend } from '@openwork/process-backend/pipe';
import { TurnScope } from '@openwork/tool-contract';
import { Registry } from '@openwork/toolset-finalizer';

const workspace = await mkdtemp(join(tmpdir(), 'consumer-'));
await writeFile(join(workspace, 'hello.txt'), 'hello from a tarball\n');
const filesystem = new NodeFileSystem();
const session = {
  workingDirectory: workspace,
  environment: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  paths: await PathGuard.create({ workingDirectory: workspace, probe: filesystem }),
  filesystem,
  processes: new PipeProcessBackend(),
  limits: DEFAULT_LIMITS,
  readLedger: new ReadLedger(),
};
const registry = new Registry();
for (const tool of builtinTools()) registry.register(tool);
const toolset = registry.finalize(session);
const turn = new TurnScope();
// Nobody to ask: a command off the read-only list would be refused; `cat … | wc` is on it.
const authorize = authorizer({ mode: 'default', ...sessionPolicy(session), ask: askNobody });
const call = async (name, input, id) => {
  const active = turn.startCall({ callId: id });
  try {
    return await toolset.call(name, input, active.context, { authorize });
  } finally {
    active.end();
  }
};
const read = await call('read', { path: 'hello.txt' }, 'c1');
const bash = await call('bash', { command: 'cat hello.txt | wc -c' }, 'c2');
// grep runs in the file system's worker threads: their code is the bundle the build put in dist/.
const grep = await call('grep', { pattern: 'from a tar' }, 'c4');
await session.processes.dispose();
const write = await call('write', { path: 'new.txt', content: 'x' }, 'c3');
await filesystem.close();
console.log(JSON.stringify({ names: toolset.names, read: read.data, bash: bash.data, bashDecision: bash.decision, write: write.error, grep: grep.data ?? grep.error }));
