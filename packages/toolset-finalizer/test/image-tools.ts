// Stand-ins for read of an image file: tools whose ok results carry a
// one-pixel PNG as image parts (one, or two), beside their text. The real read of a PNG on
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

const pictures = defineTool({
  id: 'test/pictures',
  name: 'pictures',
  description: 'Returns two images.',
  risk: 'read',
  input: Type.Object({}),
  effect: () => ({ kind: 'read', paths: [] }),
  execute: () => {
    const image = { type: 'image' as const, mediaType: 'image/png' as const, data: PIXEL };
    return Promise.resolve({ data: {}, output: 'two pictures', images: [image, image] });
  },
});

export function pictureToolset(): FinalizedToolset {
  const session: ToolSessionContext = { workingDirectory: '/w', environment: {} };
  return new Registry().register(adaptTool(picture)).register(adaptTool(pictures)).finalize(session, {}, { authorize: allowAll });
}
