import type { BuiltinSession } from '@openwork/builtin-tools';
import { MemoryFileSystem } from '@openwork/fs-backend/memory';
import { PathGuard } from '@openwork/path-guard';
import { describe, expect, it } from 'vitest';
import { DEFAULT_APPROVAL, PERMISSION_MODES, toolsetInstructions, type InstructedToolset } from '../src/index.ts';

const ALL = ['read', 'write', 'edit', 'grep', 'glob', 'list', 'bash', 'bash_output', 'bash_kill', 'bash_write'];

/** A toolset's session over a memory disk: the instructions read only its roots. */
async function toolsetOver(roots: { readOnly?: string[]; protected?: string[]; writable?: string[] }, names: readonly string[]): Promise<InstructedToolset> {
  const filesystem = new MemoryFileSystem({ directories: ['/ws', '/more', '/docs', '/skills'] });
  const paths = await PathGuard.create({
    workingDirectory: '/ws',
    writableRoots: roots.writable ?? [],
    readOnlyRoots: roots.readOnly ?? [],
    protectedRoots: roots.protected ?? [],
    probe: filesystem,
  });
  // Only the roots and the working directory are read.
  const session = { workingDirectory: paths.workingDirectory, paths } as unknown as BuiltinSession;
  return { session, names };
}

describe('toolsetInstructions (docs/contract.md §5.3)', () => {
  it('names every root by its kind, absolute, the mode and the approval line', async () => {
    const toolset = await toolsetOver({ writable: ['/more'], readOnly: ['/docs'], protected: ['/skills'] }, ALL);
    const lines = toolsetInstructions(toolset, { mode: 'default', approval: 'asked at the terminal.' }).split('\n');
    expect(lines.slice(0, 6)).toEqual([
      'Working directory: /ws',
      'Writable roots: /ws, /more',
      'Read-only roots: /docs',
      'Protected roots (readable, never writable): /skills',
      expect.stringMatching(/^Mode default: .*asks for approval/) as unknown,
      'Approval: asked at the terminal.',
    ]);
    expect(lines.slice(6).every((line) => line.startsWith('- '))).toBe(true);
  });

  it('leaves out kinds of roots there are none of, and says each mode differently', async () => {
    const toolset = await toolsetOver({}, ALL);
    const texts = PERMISSION_MODES.map((mode) => toolsetInstructions(toolset, { mode }));
    for (const text of texts) {
      expect(text).not.toMatch(/Read-only roots|Protected roots/);
      expect(text).toContain(`Approval: ${DEFAULT_APPROVAL}`);
    }
    expect(new Set(texts.map((text) => text.split('\n').find((line) => line.startsWith('Mode '))))).toHaveProperty('size', PERMISSION_MODES.length);
  });

  it('gives only the guidance of the tools the toolset holds', async () => {
    const reading = toolsetInstructions(await toolsetOver({}, ['read', 'grep', 'glob', 'list']), { mode: 'readOnly' });
    expect(reading).toContain('includeIgnored');
    expect(reading).not.toMatch(/bash|edit/);
    const bashOnly = toolsetInstructions(await toolsetOver({}, ['bash']), { mode: 'default' });
    expect(bashOnly).toContain('Prefer read, write, edit, grep, glob and list to bash');
    expect(bashOnly).not.toContain('includeIgnored');
  });
});
