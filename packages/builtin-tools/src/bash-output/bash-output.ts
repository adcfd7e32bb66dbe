import { defineTool, deriveSignal } from '@openwork/tool-contract';
import Type from 'typebox';
import { descriptions } from '../descriptions.generated.ts';
import type { BuiltinSession } from '../session.ts';
import { BackgroundReadOutput, describeRead, type BackgroundReadData } from '../bash/background/background-read.ts';
import { sessionBackground, startedCommandEffect } from '../bash/background/session-background.ts';

export const BashOutputInput = Type.Object({
  backgroundId: Type.String({ minLength: 1, description: 'The id bash returned.' }),
  waitMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 30_000, description: 'Default 0: answer at once.' })),
});

export type BashOutputData = BackgroundReadData;

export const bashOutputTool = defineTool({
  id: 'process/bash-output',
  name: 'bash_output',
  description: descriptions['bash-output'],
  risk: 'execute',
  accompanies: 'bash',
  input: BashOutputInput,
  output: BackgroundReadOutput,
  effect: startedCommandEffect,
  execute: async (session: BuiltinSession, call, input) => {
    const background = sessionBackground(session);
    const entry = background.get(input.backgroundId);
    const waitMs = input.waitMs ?? 0;
    if (waitMs > 0 && !entry.ended && entry.stdout.empty && entry.stderr.empty) {
      const wait = deriveSignal(call.signal, Date.now() + waitMs);
      try {
        await entry.changed(wait.signal);
      } finally {
        wait.release();
      }
    }
    const read = entry.read();
    // Its end has been reported with the last of its output: the id is collected and frees its place.
    if (entry.ended) background.collect(entry.id);
    return describeRead(read);
  },
});
