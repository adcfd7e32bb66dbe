import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { toModelResult, type ToolResult } from '@openwork/tool-contract';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinTools, type ReadData } from '../src/index.ts';
import { createHarness, errorKind } from './harness.ts';
import { gif, jpeg, png, webp } from './image-samples.ts';
import { callTool, memoryWorld, nodeWorld, type SearchWorld } from './search-world.ts';

const readSchema = builtinTools().find((tool) => tool.definition.name === 'read')?.definition.outputSchema as TSchema;

/** The data as an MCP client gets it, checked against read's declared output schema. */
function checkedData(result: ToolResult): ReadData {
  expect(result.status, result.output).toBe('ok');
  const data: unknown = JSON.parse(JSON.stringify(result.data));
  expect([...Value.Errors(readSchema, data)].map((error) => `${error.instancePath} ${error.message}`)).toEqual([]);
  return result.data as ReadData;
}

function messageOf(result: ToolResult): string {
  return result.status === 'ok' ? '' : result.error.message;
}

const SAMPLES = [
  ['shot.png', png(3, 2), 'image/png', 'PNG', 3, 2],
  ['anim.gif', gif(7, 5), 'image/gif', 'GIF', 7, 5],
  ['photo.jpg', jpeg(640, 480), 'image/jpeg', 'JPEG', 640, 480],
  ['progressive.jpeg', jpeg(33, 1024, { progressive: true }), 'image/jpeg', 'JPEG', 33, 1024],
  ['lossy.webp', webp(320, 200, 'lossy'), 'image/webp', 'WebP', 320, 200],
  ['lossless.webp', webp(9, 16383, 'lossless'), 'image/webp', 'WebP', 9, 16383],
  ['extended.webp', webp(20000, 3, 'extended'), 'image/webp', 'WebP', 20000, 3],
] as const;

describe.each([
  ['node', nodeWorld],
  ['memory', memoryWorld],
])('read of images on the %s file system', (_name, makeWorld) => {
  let world: SearchWorld;
  afterEach(() => world.cleanup());

  it.each(SAMPLES)('%s: attached as an image part; the text gives type, bytes and pixels, never the bytes', async (name, bytes, mediaType, typeName, width, height) => {
    world = await makeWorld();
    await world.file(name, bytes);
    const result = await callTool(await world.session(), 'read', { path: name });
    const data = checkedData(result);
    expect(data).toMatchObject({ path: name, content: '', lineCount: 0, truncated: false, kind: 'image', image: { mediaType, bytes: bytes.length, width, height } });
    expect(result.output).toBe(`${name}: ${typeName} image, ${width}x${height} pixels, ${bytes.length} bytes. The image is attached to this result.`);
    const base64 = bytes.toString('base64');
    expect(result.status === 'ok' && result.images).toEqual([{ type: 'image', mediaType, data: base64 }]);
    expect(toModelResult(result).images).toEqual([{ type: 'image', mediaType, data: base64 }]);
    expect(result.output).not.toContain(base64.slice(0, 12));
    expect(JSON.stringify(result.data)).not.toContain(base64.slice(0, 12));
  });

  it('an image above the image limit is too_large, with its type, size and pixels, and nothing attached', async () => {
    world = await makeWorld();
    const bytes = png(40, 30);
    await world.file('big.png', bytes);
    const result = await callTool(await world.session({ limits: { maxImageBytes: 100 } }), 'read', { path: 'big.png' });
    expect(errorKind(result)).toBe('too_large');
    expect(messageOf(result)).toContain(`big.png is a PNG image, 40x30 pixels, ${bytes.length} bytes, above the 100 bytes limit for an image`);
    expect('images' in result).toBe(false);
  });

  it('a file named .png that is not an image is read as before: text as text, other bytes as binary', async () => {
    world = await makeWorld();
    await world.file('notes.png', 'not really a picture\n');
    await world.file('blob.png', Buffer.from([0x00, 0x01, 0x02, 0x50, 0x4e, 0x47]));
    const session = await world.session();
    const text = await callTool(session, 'read', { path: 'notes.png' });
    expect(checkedData(text)).toEqual({ path: 'notes.png', content: 'not really a picture\n', offset: 0, lineCount: 1, totalLines: 1, truncated: false });
    expect('images' in text).toBe(false);
    const binary = await callTool(session, 'read', { path: 'blob.png' });
    expect(errorKind(binary)).toBe('binary');
    expect(messageOf(binary)).toContain('NUL bytes');
  });

  it('an image is known by its bytes, not its name; one whose header is cut short is binary, never attached', async () => {
    world = await makeWorld();
    await world.file('picture.dat', gif(2, 2));
    await world.file('cut.png', png(5, 5).subarray(0, 20));
    const session = await world.session();
    expect(checkedData(await callTool(session, 'read', { path: 'picture.dat' }))).toMatchObject({ kind: 'image', image: { mediaType: 'image/gif' } });
    const cut = await callTool(session, 'read', { path: 'cut.png' });
    expect(errorKind(cut)).toBe('binary');
    expect(messageOf(cut)).toContain('starts like a PNG image, but its header is damaged or cut short');
  });

  it('an image above the whole-file limit is too_large, not binary', async () => {
    world = await makeWorld();
    await world.file('wide.png', png(200, 10));
    const result = await callTool(await world.session({ limits: { maxReadFileBytes: 64 } }), 'read', { path: 'wide.png' });
    expect(errorKind(result)).toBe('too_large');
    expect(messageOf(result)).toContain('wide.png is a PNG image larger than 64 bytes, too large to attach');
  });
});

describe('the default image limit', () => {
  const LIMIT = 3.75 * 1024 * 1024;
  it('is 3.75 MiB, so the base64 form fits the 5 MiB a model API takes: a valid PNG just above it is too_large, one at it is attached', async () => {
    const h = await createHarness();
    try {
      const probe = png(4, 4, { padding: 0 }).length;
      await writeFile(join(h.ws, 'over.png'), png(4, 4, { padding: LIMIT - probe + 1 }));
      await writeFile(join(h.ws, 'under.png'), png(4, 4, { padding: LIMIT - probe }));
      const over = await h.call('read', { path: 'over.png' });
      expect(errorKind(over)).toBe('too_large');
      expect(messageOf(over)).toContain(`over.png is a PNG image, 4x4 pixels, ${LIMIT + 1} bytes, above the 3840 KiB limit for an image`);
      const under = await h.call('read', { path: 'under.png' });
      expect(checkedData(under).image).toEqual({ mediaType: 'image/png', bytes: LIMIT, width: 4, height: 4 });
      expect(under.status === 'ok' && under.images?.[0]?.data.length).toBe(5 * 1024 * 1024);
    } finally {
      await h.cleanup();
    }
  });
});
