import { defineTool, ToolError, type ToolSessionContext } from '@openwork/tool-contract';
import Type from 'typebox';

export const session: ToolSessionContext = { workingDirectory: '/w', environment: {} };

export const echoTool = defineTool({
  id: 'test/echo',
  name: 'echo',
  description: 'Returns its text.',
  risk: 'read',
  input: Type.Object({ text: Type.String() }),
  effect: () => ({ kind: 'read', paths: [] }),
  execute: (_session, _call, input) => Promise.resolve({ data: { text: input.text }, output: input.text }),
});

export const writeTool = defineTool({
  id: 'test/write',
  name: 'store',
  description: 'Pretends to write a file.',
  risk: 'write',
  input: Type.Object({ path: Type.String() }),
  effect: (input) => ({ kind: 'write', paths: [input.path] }),
  execute: (_session, _call, input) => Promise.resolve({ data: { path: input.path }, output: `stored ${input.path}` }),
});

export const runTool = defineTool({
  id: 'test/run',
  name: 'run',
  description: 'Pretends to run a command.',
  risk: 'execute',
  input: Type.Object({ command: Type.String() }),
  effect: (input, context) => ({ kind: 'execute', command: input.command, cwd: context.workingDirectory }),
  execute: () => Promise.reject(new ToolError('spawn_failed', 'no shell here')),
});
