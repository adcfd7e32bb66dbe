// A short scripted agent session against a temp copy of ./sample: each of the
// seven tools, each call and its result, printed as a person would like to
// read them. The file changes go to a journal that `openwork-tools undo` reads.
import { appendFile } from 'node:fs/promises';
import { authorizer, sessionPolicy, type AskPerson } from '@openwork/permission-policy';
import { TurnScope } from '@openwork/tool-contract';
import { openSampleSession } from './examples/sample-session.ts';

const { workspace, session, toolset } = await openSampleSession();
const journal = `${workspace}.changes.jsonl`;
const turn = new TurnScope();
let calls = 0;
let changes = 0;

const indent = (text: string) => text.split('\n').map((line) => `    ${line}`).join('\n');

/** The demo is its own person at the terminal: it shows the question and says yes. */
const approveOnScreen: AskPerson = ({ question }) => {
  console.log(`  ? ${question} → yes (the demo answers for you)`);
  return Promise.resolve('approved');
};

// acceptEdits: reads, writes and edits run; bash runs on its own only when the read-only list or the filesystem gate accepts it, and asks otherwise.
const authorize = authorizer({ mode: 'acceptEdits', ...sessionPolicy(session), ask: approveOnScreen });

async function step(name: string, input: Record<string, unknown>): Promise<void> {
  console.log(`\n▶ ${name} ${JSON.stringify(input)}`);
  const active = turn.startCall({ callId: `demo-${(calls += 1)}` });
  const result = await toolset.call(name, input, active.context, { authorize });
  active.end();
  // One artifact per line, the journal `openwork-tools call --artifacts` writes and `undo` reads.
  if (result.artifacts.length > 0) await appendFile(journal, result.artifacts.map((artifact) => `${JSON.stringify(artifact)}\n`).join(''));
  changes += result.artifacts.length;
  const how = result.decision?.approved === true ? ', approved' : result.decision?.rule.startsWith('read_only:') ? `, ran on its own (${result.decision.rule})` : '';
  console.log(`  ${result.status === 'ok' ? '✓ ok' : `✗ ${result.status}: ${result.error.kind}`}${how}`);
  console.log(indent(result.output));
}

console.log(`openwork-tools demo in ${workspace}`);
console.log(`tools: ${toolset.names.join(', ')}`);
try {
  await step('list', {});
  await step('glob', { pattern: '**/*.ts' });
  await step('grep', { pattern: 'Hello', mode: 'content' });
  await step('read', { path: 'src/greet.ts' });
  await step('edit', { path: 'src/greet.ts', oldText: "'Hello, ' + name", newText: '`Hello, ${name}!`' });
  await step('edit', { path: 'src/greet.ts', oldText: 'Goodbye', newText: 'x' });
  await step('write', { path: 'src/farewell.ts', content: "export const farewell = (name: string) => `Bye, ${name}`;\n" });
  await step('read', { path: '../outside.txt' });
  await step('bash', { command: 'ls src && grep -c name src/greet.ts' });
  await step('bash', { command: 'node -e "console.log(\'node\', process.version)"' });
} finally {
  await session.processes.dispose();
}

console.log(`\n${changes} file change(s) are journaled in ${journal}.`);
console.log('Undo them, newest first (a file changed since is left alone and reported), from the repository root:');
console.log(`    pnpm exec openwork-tools undo --artifacts ${journal} --cwd ${workspace}`);
console.log(`The copy of the sample stays in ${workspace}; remove it and the journal when you are done.`);
