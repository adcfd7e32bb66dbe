// A short scripted agent session against a temp copy of ./sample: each call
// and its result, printed as a person would like to read them.
import { undoChanges } from '@openwork/builtin-tools';
import { TurnScope, type FileChangeArtifact } from '@openwork/tool-contract';
import { openSampleSession } from './examples/sample-session.ts';

const { workspace, session, toolset, close } = await openSampleSession();
const journal: FileChangeArtifact[] = [];
const turn = new TurnScope();

const indent = (text: string) => text.split('\n').map((line) => `    ${line}`).join('\n');

async function step(name: string, input: Record<string, unknown>): Promise<void> {
  const active = turn.startCall({ callId: `demo-${journal.length}` });
  const result = await toolset.call(name, input, active.context);
  active.end();
  journal.push(...result.artifacts);
  console.log(`\n▶ ${name} ${JSON.stringify(input)}`);
  console.log(`  ${result.status === 'ok' ? '✓ ok' : `✗ ${result.status}: ${result.error.kind}`}`);
  console.log(indent(result.output));
}

console.log(`openwork-tools demo in ${workspace}`);
console.log(`tools: ${toolset.names.join(', ')}`);
await step('list', {});
await step('list', { path: 'src' });
await step('read', { path: 'src/greet.ts' });
await step('edit', { path: 'src/greet.ts', oldText: "'Hello, ' + name", newText: '`Hello, ${name}!`' });
await step('edit', { path: 'src/greet.ts', oldText: 'Goodbye', newText: 'x' });
await step('write', { path: 'src/farewell.ts', content: "export const farewell = (name: string) => `Bye, ${name}`;\n" });
await step('read', { path: '../outside.txt' });
await step('read', { path: 'src/greet.ts' });
console.log('\n▶ undo (newest first)');
const report = await undoChanges(session, journal, { signal: turn.signal });
console.log(indent(JSON.stringify(report, null, 2)));
await step('list', { path: 'src' });
await close();
