// Small stand-ins for read, list and write over a fixed set of files: the
// adapters are tested against the toolset, not against the real tools
// (those are replayed in tools/demo).
import { defineTool, ToolError, type FileChangeArtifact, type ToolOutcome, type ToolSessionContext } from '@openwork/tool-contract';
import Type from 'typebox';
import { allowAll, Registry, type FinalizedToolset } from '../src/index.ts';

const files = new Map([
  ['README.md', '# greeter\n'],
  ['src/greet.ts', "export const greet = (name: string) => 'Hello, ' + name;\n"],
]);

const readTool = defineTool({
  id: 'test/read',
  name: 'read',
  description: 'Reads a file.',
  risk: 'read',
  input: Type.Object({ path: Type.String() }),
  effect: (input) => ({ kind: 'read', paths: [input.path] }),
  execute: (_session, _call, input) => {
    const content = files.get(input.path);
    if (content === undefined) return Promise.reject(new ToolError('not_found', `there is no file at ${input.path}`));
    return Promise.resolve({ data: { path: input.path, content }, output: content });
  },
});

const listTool = defineTool({
  id: 'test/list',
  name: 'list',
  description: 'Lists the files.',
  risk: 'read',
  input: Type.Object({}),
  effect: () => ({ kind: 'read', paths: [] }),
  execute: () => Promise.resolve({ data: { entries: [...files.keys()] }, output: [...files.keys()].join('\n') }),
});

const writeTool = defineTool({
  id: 'test/write',
  name: 'write',
  description: 'Pretends to write a file and leaves a file change behind.',
  risk: 'write',
  input: Type.Object({ path: Type.String(), content: Type.String() }),
  effect: (input) => ({ kind: 'write', paths: [input.path] }),
  execute: (_session, _call, input) => {
    const artifact: FileChangeArtifact = {
      kind: 'file_change',
      changeId: 'change-1',
      path: input.path,
      absolutePath: `/w/${input.path}`,
      change: 'create',
      added: 1,
      removed: 0,
      hunks: [],
      beforeSha256: null,
      afterSha256: 'secret-sha',
      originalContent: null,
      undone: false,
    };
    return Promise.resolve({ data: { path: input.path }, output: `wrote ${input.path}`, artifacts: [artifact] });
  },
});

/** Waits until its call is cancelled or reaches its deadline. */
const waitTool = defineTool({
  id: 'test/wait',
  name: 'wait',
  description: 'Waits until cancelled.',
  risk: 'read',
  input: Type.Object({}),
  effect: () => ({ kind: 'read', paths: [] }),
  execute: (_session, call) =>
    new Promise<ToolOutcome<unknown>>((_resolve, reject) => {
      call.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    }),
});

export function loopToolset(): FinalizedToolset {
  const session: ToolSessionContext = { workingDirectory: '/w', environment: {} };
  // The adapters are under test here, not the policy: every call runs unless a test passes its own.
  return new Registry().register(readTool).register(listTool).register(writeTool).register(waitTool).finalize(session, {}, { authorize: allowAll });
}
