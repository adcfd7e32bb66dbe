// Replays a recorded Anthropic assistant message against the real tools:
// what an agent product does with each model turn that asks for tools.
import { readFile } from 'node:fs/promises';
import type { FileChangeArtifact } from '@openwork/tool-contract';
import { runAnthropicToolUses, type AnthropicContentBlock, type AnthropicToolResultBlock } from '@openwork/toolset-finalizer';
import { acceptEditsPolicy, openSampleSession } from './sample-session.ts';

/** A recorded turn: the assistant message and the tool_result blocks it got back. */
export interface RecordedTranscript {
  readonly tools: readonly string[];
  readonly assistant: { readonly role: 'assistant'; readonly content: readonly AnthropicContentBlock[] };
  /** With the temp workspace written as `<workspace>`. */
  readonly toolResults: readonly AnthropicToolResultBlock[];
}

export interface Replay {
  readonly toolResults: readonly AnthropicToolResultBlock[];
  /** The file changes the calls left behind, for an undo journal; the model never sees them. */
  readonly changes: readonly FileChangeArtifact[];
}

export async function loadTranscript(): Promise<RecordedTranscript> {
  return JSON.parse(await readFile(new URL('./transcript.json', import.meta.url), 'utf8')) as RecordedTranscript;
}

/** Runs the transcript's tool_use blocks over a fresh copy of the sample; temp paths come back as `<workspace>`. */
export async function replayTranscript(transcript: RecordedTranscript): Promise<Replay> {
  // The toolset the transcript was recorded with.
  const sample = await openSampleSession({ names: transcript.tools });
  try {
    const changes: FileChangeArtifact[] = [];
    const blocks = await runAnthropicToolUses(sample.toolset, transcript.assistant.content, {
      authorize: acceptEditsPolicy(sample.session),
      onResult: (result) => changes.push(...result.artifacts),
    });
    const hide = (text: string): string => text.replaceAll(sample.workspace, '<workspace>');
    const toolResults = blocks.map((block) => ({
      ...block,
      content: typeof block.content === 'string' ? hide(block.content) : block.content.map((part) => (part.type === 'text' ? { ...part, text: hide(part.text) } : part)),
    }));
    return { toolResults, changes };
  } finally {
    await sample.close();
  }
}
