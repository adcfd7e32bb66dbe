// What every client script works on: a folder holding a small PNG and a text
// file, and the toolset a product builds over it from the installed packages.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinTools, DEFAULT_LIMITS, ReadLedger } from '@openwork/builtin-tools';
import { NodeFileSystem } from '@openwork/fs-backend/node';
import { PathGuard } from '@openwork/path-guard';
import { PipeProcessBackend } from '@openwork/process-backend/pipe';
import { Registry } from '@openwork/toolset-finalizer';

/** The two files, kept apart so that the test knows them without loading the packages: a 1×1 PNG and a line of text. */
const files = JSON.parse(await readFile(new URL('fixture-files.json', import.meta.url), 'utf8'));
export const PNG = files['pixel.png (base64)'];
export const NOTES = files['notes.txt'];

/** The two reads every client makes, as tool calls: the text file, then the image. */
export const READS = [
  { id: 'call-notes', input: { path: 'notes.txt' } },
  { id: 'call-pixel', input: { path: 'pixel.png' } },
];

export async function createFixture() {
  const workspace = await mkdtemp(join(tmpdir(), 'client-'));
  await writeFile(join(workspace, 'notes.txt'), NOTES);
  await writeFile(join(workspace, 'pixel.png'), Buffer.from(PNG, 'base64'));
  const filesystem = new NodeFileSystem();
  const session = {
    workingDirectory: workspace,
    environment: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    paths: await PathGuard.create({ workingDirectory: workspace, probe: filesystem }),
    filesystem,
    processes: new PipeProcessBackend(),
    limits: DEFAULT_LIMITS,
    readLedger: new ReadLedger(),
  };
  const registry = new Registry();
  for (const tool of builtinTools()) registry.register(tool);
  // Finalized without a policy: reads run, which is all a client does here.
  const toolset = registry.finalize(session);
  return {
    workspace,
    toolset,
    close: async () => {
      await session.processes.dispose();
      await filesystem.close();
    },
  };
}
