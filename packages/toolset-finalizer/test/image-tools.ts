// A stand-in for read of an image file: a tool whose ok result carries a
// one-pixel PNG as an image part, beside its text. The real read of a PNG on
// disk through each adapter is tools/demo/test/adapter-images.test.ts.
import { adaptTool, defineTool, type ToolSessionContext } from '@openwork/tool-contract';
import Type from 'typebox';
import { allowAll, Registry, type FinalizedToolset } from '../src/index.ts';

/** One pixel of PNG, in base64: what read returns for an image file, as an image part. */
export const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The model text of the picture tool's result. */
export const PICTURE_TEXT = 'a.png: PNG image, 1x1 pixels';

const picture = defineTool({
  id: 'test/picture',
  name: 'picture',
  description: 'Returns an image.',
  risk: 'read',
  input: Type.Object({}),
  effect: () => ({ kind: 'read', paths: [] }),
  execute: () => Promise.resolve({ data: {}, output: PICTURE_TEXT, images: [{ type: 'image' as const, mediaType: 'image/png' as const, data: PIXEL }] }),
});

export function pictureToolset(): FinalizedToolset {
  const session: ToolSessionContext = { workingDirectory: '/w', environment: {} };
  return new Registry().register(adaptTool(picture)).finalize(session, {}, { authorize: allowAll });
}
