import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadTranscript, replayTranscript } from '../examples/replay-transcript.ts';

const run = promisify(execFile);
const examples = fileURLToPath(new URL('../examples/', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));

describe('the recorded Anthropic transcript', () => {
  it('replays against the real tools to the recorded tool_result blocks', async () => {
    const transcript = await loadTranscript();
    const replay = await replayTranscript(transcript);
    expect(replay.toolResults).toEqual(transcript.toolResults);
    const uses = transcript.assistant.content.filter((block) => block.type === 'tool_use');
    expect(replay.toolResults.map((block) => block.tool_use_id)).toEqual(uses.map((block) => block.id));
  });

  it('keeps the edit’s file change for undo, and out of every tool_result', async () => {
    const replay = await replayTranscript(await loadTranscript());
    expect(replay.changes.map((change) => [change.path, change.change])).toEqual([['src/greet.ts', 'modify']]);
    const text = JSON.stringify(replay.toolResults);
    for (const change of replay.changes) {
      expect(text).not.toContain(change.afterSha256);
      expect(text).not.toContain(change.changeId);
    }
  });
});

describe('the examples run', () => {
  it('anthropic-definitions prints both definition shapes from one toolset', async () => {
    const { stdout } = await run(tsx, ['anthropic-definitions.ts'], { cwd: examples });
    expect(stdout).toContain('"input_schema"');
    expect(stdout).toContain('"type": "function"');
    expect(stdout).toContain('"name": "bash"');
  });

  it('anthropic-loop prints the tool_result blocks of the replay', async () => {
    const { stdout } = await run(tsx, ['anthropic-loop.ts'], { cwd: examples });
    expect(stdout).toContain('"tool_use_id": "toolu_09"');
    expect(stdout).toContain('1 file change(s) kept for undo: src/greet.ts');
  });

  it('ai-sdk builds the AI SDK tool set and runs read through it', async () => {
    const { stdout } = await run(tsx, ['ai-sdk.ts'], { cwd: examples });
    expect(stdout).toMatch(/AI SDK tools: read, write, edit, .*bash/);
    expect(stdout).toContain("return 'Hello, ' + name;");
  });
});
