import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinTools, DEFAULT_LIMITS, ReadLedger, type BuiltinSession } from '@openwork/builtin-tools';
import { NodeFileSystem } from '@openwork/fs-backend/node';
import { PathGuard } from '@openwork/path-guard';
import { DEFAULT_APPROVAL, modeSelection, toolsetInstructions, type PermissionMode } from '@openwork/permission-policy';
import { PipeProcessBackend } from '@openwork/process-backend/pipe';
import { Registry } from '@openwork/toolset-finalizer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ROOTS_NOTE, CLIENT_ROOTS_ONLY, MCP_APPROVAL, MCP_APPROVAL_YES, mcpInstructions } from '../src/mcp/instructions.ts';
import { serveIn } from './background-server.ts';

let base: string;
let ws: string;
let other: string;
let docs: string;
let skills: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'mcp-instructions-')));
  [ws, other, docs, skills] = ['ws', 'other', 'docs', 'skills'].map((name) => join(base, name)) as [string, string, string, string];
  for (const dir of [ws, other, docs, skills]) await mkdir(dir);
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** The toolset a host of the library builds over the same roots, as README's example does. */
async function libraryToolset(mode: PermissionMode) {
  const filesystem = new NodeFileSystem();
  const paths = await PathGuard.create({ workingDirectory: ws, writableRoots: [other], readOnlyRoots: [docs], protectedRoots: [skills], probe: filesystem });
  const session: BuiltinSession = {
    workingDirectory: paths.workingDirectory,
    environment: {},
    paths,
    filesystem,
    processes: new PipeProcessBackend(),
    limits: DEFAULT_LIMITS,
    readLedger: new ReadLedger(),
  };
  const registry = new Registry<BuiltinSession>();
  for (const tool of builtinTools()) registry.register(tool);
  return registry.finalize(session, modeSelection(mode));
}

describe('the MCP instructions (docs/contract.md §5.1)', () => {
  it('tell the client the roots, the mode and how an ask ends, in the words the library gives a system prompt', async () => {
    const served = await serveIn(ws, ['--root', other, '--read-root', docs, '--skills-root', skills, '--mode', 'acceptEdits']);
    try {
      const instructions = served.client.getInstructions();
      const lines = instructions?.split('\n') ?? [];
      expect(lines.slice(0, 6)).toEqual([
        `Working directory: ${ws}`,
        `Writable roots: ${ws}, ${other}`,
        `Read-only roots: ${docs}`,
        `Protected roots (readable, never writable): ${skills}`,
        expect.stringMatching(/^Mode acceptEdits: /) as unknown,
        `Approval: ${MCP_APPROVAL_YES}`,
      ]);
      const toolset = await libraryToolset('acceptEdits');
      expect(toolsetInstructions(toolset, { mode: 'acceptEdits', approval: MCP_APPROVAL_YES })).toBe(instructions);
      await toolset.session.processes.dispose();
    } finally {
      await served.close();
    }
  });

  it('say what happens on an ask without --yes, and when the client’s roots may replace the command line’s', async () => {
    const toolset = await libraryToolset('default');
    const asking = mcpInstructions(toolset, { mode: 'default', yes: false, roots: 'command-line' });
    expect(asking).toContain(`Approval: ${MCP_APPROVAL}`);
    expect(MCP_APPROVAL).toMatch(/elicitation.*--yes, --allow, --mode/);
    const [own, rest] = [asking.split('\n').slice(0, 2), asking.split('\n').slice(2)];
    expect(own).toEqual([`Working directory: ${ws}`, `Writable roots: ${ws}, ${other}`]);
    // The client's roots, when it sends any, replace the command line's working directory and writable roots; read-only and protected roots stay.
    expect(mcpInstructions(toolset, { mode: 'default', yes: false, roots: 'client-or-command-line' })).toBe([...own, CLIENT_ROOTS_NOTE, ...rest].join('\n'));
    const clientOnly = mcpInstructions(toolset, { mode: 'default', yes: false, roots: 'client' });
    expect(clientOnly).toBe([CLIENT_ROOTS_ONLY, ...rest].join('\n'));
    expect(clientOnly).toContain(`Read-only roots: ${docs}`);
    // A host that gives no line of its own gets the library's, and a toolset without bash no word about it.
    expect(toolsetInstructions(toolset, { mode: 'default' })).toContain(`Approval: ${DEFAULT_APPROVAL}`);
    const reading = await libraryToolset('readOnly');
    const readOnly = toolsetInstructions(reading, { mode: 'readOnly' });
    expect(readOnly).toMatch(/^Mode readOnly: /m);
    expect(readOnly).not.toMatch(/bash|edit/);
    await Promise.all([toolset.session.processes.dispose(), reading.session.processes.dispose()]);
  });
});
