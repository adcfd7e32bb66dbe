import { defineTool } from '@openwork/tool-contract';
import Type from 'typebox';
import { descriptions } from '../descriptions.generated.ts';
import type { BuiltinSession } from '../session.ts';
import { BackgroundReadOutput, describeRead, type BackgroundReadData } from '../bash/background/background-read.ts';
import { sessionBackground, startedCommandEffect } from '../bash/background/session-background.ts';

export const BashKillInput = Type.Object({
  backgroundId: Type.String({ minLength: 1, description: 'The id bash returned.' }),
});

export type BashKillData = BackgroundReadData;

export const bashKillTool = defineTool({
  id: 'process/bash-kill',
  name: 'bash_kill',
  description: descriptions['bash-kill'],
  risk: 'execute',
  accompanies: 'bash',
  input: BashKillInput,
  output: BackgroundReadOutput,
  effect: startedCommandEffect,
  execute: async (session: BuiltinSession, call, input) => {
    const background = sessionBackground(session);
    const entry = background.get(input.backgroundId);
    // docs/design.md §5: TERM, grace, KILL, to its whole cgroup (or process group); the answer waits until they are gone.
    entry.kill();
    await Promise.race([entry.done, new Promise((resolve) => call.signal.addEventListener('abort', resolve, { once: true }))]);
    const read = entry.read();
    if (entry.ended) background.collect(entry.id);
    return describeRead(read);
  },
});
