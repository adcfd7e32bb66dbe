import { defineTool, ToolError } from '@openwork/tool-contract';
import Type from 'typebox';
import { descriptions } from '../descriptions.generated.ts';
import type { BuiltinSession } from '../session.ts';
import { sessionBackground, startedCommandEffect } from '../bash/background/session-background.ts';

export const BashWriteInput = Type.Object({
  backgroundId: Type.String({ minLength: 1, description: 'The id bash returned.' }),
  input: Type.String({ minLength: 1 }),
});

export const BashWriteOutput = Type.Object({ backgroundId: Type.String(), bytes: Type.Integer({ minimum: 0 }) });

export interface BashWriteData {
  readonly backgroundId: string;
  readonly bytes: number;
}

export const bashWriteTool = defineTool({
  id: 'process/bash-write',
  name: 'bash_write',
  description: descriptions['bash-write'],
  risk: 'execute',
  accompanies: 'bash',
  input: BashWriteInput,
  output: BashWriteOutput,
  effect: startedCommandEffect,
  execute: (session: BuiltinSession, _call, input) => {
    const entry = sessionBackground(session).get(input.backgroundId);
    if (!entry.terminal) {
      throw new ToolError('invalid_input', `${entry.id} has no terminal: only a command started with "tty": true takes input; start it again with tty`);
    }
    if (!entry.write(input.input)) {
      throw new ToolError('invalid_input', `${entry.id} has ended (${entry.status}); read its end with bash_output`);
    }
    const bytes = Buffer.byteLength(input.input, 'utf8');
    const data: BashWriteData = { backgroundId: entry.id, bytes };
    return Promise.resolve({ data, output: `Typed ${bytes} bytes into ${entry.id}'s terminal; read its answer with bash_output (waitMs to wait for it).` });
  },
});
