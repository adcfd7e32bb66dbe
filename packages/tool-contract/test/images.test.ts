import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import {
  adaptTool,
  defineTool,
  errorResult,
  toModelResult,
  ToolError,
  TurnScope,
  type FileChangeArtifact,
  type ImagePart,
  type ToolOutcome,
  type ToolResult,
  type ToolSessionContext,
} from '../src/index.ts';

const session: ToolSessionContext = { workingDirectory: '/w', environment: {} };
const PIXEL: ImagePart = { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' };

function imageTool(outcome: () => Promise<ToolOutcome<unknown>>) {
  return adaptTool(
    defineTool({
      id: 'test/look',
      name: 'look',
      description: 'Looks.',
      risk: 'read',
      input: Type.Object({}),
      effect: () => ({ kind: 'read', paths: [] }),
      execute: () => outcome(),
    }),
  );
}

async function run(dyn: ReturnType<typeof imageTool>): Promise<ToolResult> {
  const context = new TurnScope().startCall({ callId: 'c1' }).context;
  const prepared = dyn.prepare(session, {}, 'c1');
  return 'run' in prepared ? prepared.run(context) : prepared;
}

describe('images in results', () => {
  it('an outcome with images gives an ok result with them, and the model result carries them beside the text', async () => {
    const result = await run(imageTool(() => Promise.resolve({ data: { kind: 'image' }, output: 'a.png: PNG image, 1x1 pixels, 8 bytes', images: [PIXEL] })));
    expect(result).toMatchObject({ status: 'ok', output: 'a.png: PNG image, 1x1 pixels, 8 bytes', images: [PIXEL] });
    expect(toModelResult(result)).toEqual({ content: 'a.png: PNG image, 1x1 pixels, 8 bytes', isError: false, images: [PIXEL] });
    // The text never holds the bytes.
    expect(result.output).not.toContain(PIXEL.data);
  });

  it('no images, or an empty list, leaves the field out of both, so every result from before reads the same', async () => {
    for (const images of [undefined, []]) {
      const result = await run(imageTool(() => Promise.resolve({ data: null, output: 'text', ...(images === undefined ? {} : { images }) })));
      expect('images' in result).toBe(false);
      expect(toModelResult(result)).toEqual({ content: 'text', isError: false });
    }
  });

  it('an error result never carries images, whatever a caller put on it', async () => {
    const failed = await run(
      imageTool(() => {
        throw new ToolError('too_large', 'too big');
      }),
    );
    expect(failed.status).toBe('error');
    expect('images' in failed).toBe(false);
    const forged = { ...errorResult({ tool: 'look', toolId: null, callId: 'c', error: { kind: 'io', message: 'x' } }), images: [PIXEL] } as ToolResult;
    expect(toModelResult(forged)).toEqual({ content: 'Error [io]: x', isError: true });
  });

  it('a file_change artifact may say how its original was encoded; without it, it is UTF-8 as before', () => {
    const base: FileChangeArtifact = {
      kind: 'file_change',
      changeId: 'c',
      path: 'a',
      absolutePath: '/w/a',
      change: 'modify',
      added: 1,
      removed: 1,
      hunks: [],
      beforeSha256: 'x'.repeat(64),
      afterSha256: 'y'.repeat(64),
      originalContent: '\uFEFFold\n',
      undone: false,
    };
    const utf16: FileChangeArtifact = { ...base, encoding: 'utf-16le' };
    expect(JSON.parse(JSON.stringify(utf16))).toMatchObject({ encoding: 'utf-16le' });
    expect('encoding' in base).toBe(false);
  });
});
