import { afterEach, describe, expect, it } from 'vitest';
import { errorKind } from './harness.ts';
import { callTool, memoryWorld, nodeWorld, type SearchWorld } from './search-world.ts';

/** The start of a PDF as writers make it: the header, a comment of high bytes (so tools take it as binary), then objects. */
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n%'), Buffer.from([0xe2, 0xe3, 0xcf, 0xd3]), Buffer.from('\n1 0 obj\n<< /Type /Catalog >>\nendobj\n')]);
/** One without the high bytes: valid UTF-8 throughout, which only the signature tells from text. */
const ASCII_PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

describe.each([
  ['node', nodeWorld],
  ['memory', memoryWorld],
])('read of a PDF on the %s file system', (_name, makeWorld) => {
  let world: SearchWorld;
  afterEach(() => world.cleanup());

  it('is not decoded: binary, naming what to do instead', async () => {
    world = await makeWorld();
    await world.file('docs/report.pdf', PDF);
    await world.file('plain.pdf', ASCII_PDF);
    await world.file('named so.bin', ASCII_PDF);
    const session = await world.session();
    for (const path of ['docs/report.pdf', 'plain.pdf']) {
      const result = await callTool(session, 'read', { path });
      expect(errorKind(result)).toBe('binary');
      expect(result.output).toBe(
        `Error [binary]: ${path} is a PDF document, which read does not decode. Use a PDF tool if you have one; otherwise extract its text through bash where poppler-utils is installed: pdftotext -layout ${path} - | head -n 200`,
      );
    }
    // By its bytes, whatever its name; a name the shell would split is quoted.
    expect((await callTool(session, 'read', { path: 'named so.bin' })).output).toContain(`pdftotext -layout 'named so.bin' -`);
  });

  it('a PDF above the whole-file limit is the same binary error', async () => {
    world = await makeWorld();
    await world.file('big.pdf', Buffer.concat([ASCII_PDF, Buffer.from('% padding\n'.repeat(100))]));
    const result = await callTool(await world.session({ limits: { maxReadFileBytes: 128 } }), 'read', { path: 'big.pdf' });
    expect(errorKind(result)).toBe('binary');
    expect(result.output).toContain('big.pdf is a PDF document, which read does not decode');
  });

  it('a file named .pdf that is text is read as text', async () => {
    world = await makeWorld();
    await world.file('todo.pdf', 'write the report\n');
    const result = await callTool(await world.session(), 'read', { path: 'todo.pdf' });
    expect(result.status, result.output).toBe('ok');
    expect(result.output).toBe('     1\twrite the report');
  });
});
