// One model turn, replayed: the tool_use blocks of a recorded assistant
// message run against the real tools over a temp copy of ../sample, and the
// tool_result blocks that would go back in the next user message are printed.
import { loadTranscript, replayTranscript } from './replay-transcript.ts';

const transcript = await loadTranscript();
const replay = await replayTranscript(transcript);
console.log(JSON.stringify({ role: 'user', content: replay.toolResults }, null, 2));
console.log(`\n${replay.changes.length} file change(s) kept for undo: ${replay.changes.map((change) => change.path).join(', ')}`);
