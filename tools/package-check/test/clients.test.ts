import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it, inject } from 'vitest';

// Each script of clients/ takes a text file and a PNG through one client's
// shape, from the installed tarballs, to that client's message format, and
// reports what the model would be sent (clients/run-all.mjs runs them all in
// one process). A new client is one more file there: this test finds it.

const project = inject('packageCheckProject');
const clients = fileURLToPath(new URL('../clients/', import.meta.url));
const HELPERS = ['fixture.mjs', 'run-all.mjs'];
/** The client scripts: every module of clients/ but the helpers. */
const SCRIPTS = readdirSync(clients)
  .filter((file) => file.endsWith('.mjs') && !HELPERS.includes(file))
  .map((file) => file.replace(/\.mjs$/, ''))
  .sort();

interface Report {
  readonly texts?: readonly string[];
  readonly images?: readonly { readonly mediaType: string; readonly data: string }[];
  readonly error?: string;
  readonly [detail: string]: unknown;
}

let reports: Record<string, Report>;
let png: string;
let notesLine: string;

beforeAll(async () => {
  await cp(clients, join(project, 'clients'), { recursive: true });
  const { stdout } = await promisify(execFile)(process.execPath, [join('clients', 'run-all.mjs')], { cwd: project });
  reports = JSON.parse(stdout) as Record<string, Report>;
  const files = JSON.parse(await readFile(join(clients, 'fixture-files.json'), 'utf8')) as Record<string, string>;
  png = files['pixel.png (base64)'] ?? '';
  notesLine = (files['notes.txt'] ?? '').trim();
}, 120_000);

describe('every client shape gets a text file and an image to the model', () => {
  it('runs a script per client: the MCP SDK client, the AI SDK, OpenAI, Anthropic and Gemini at least', () => {
    expect(Object.keys(reports).sort()).toEqual(SCRIPTS);
    expect(SCRIPTS).toEqual(expect.arrayContaining(['mcp-sdk-client', 'ai-sdk', 'openai', 'anthropic', 'gemini']));
  });

  it.each(SCRIPTS)('%s: the text file as text, the PNG as an image part of its own', (client) => {
    const report = reports[client];
    expect(report?.error).toBeUndefined();
    expect(report?.texts?.some((text) => text.includes(notesLine))).toBe(true);
    // The image's text names it, and its bytes go as an image, never inside the text.
    expect(report?.texts?.some((text) => text.includes('pixel.png: PNG image, 1x1 pixels'))).toBe(true);
    expect(report?.texts?.some((text) => text.includes(png))).toBe(false);
    expect(report?.images).toEqual([{ mediaType: 'image/png', data: png }]);
  });

  it('OpenAI: the images follow every tool message, in a user message', () => {
    expect(reports.openai).toMatchObject({ imagesAfterToolMessages: true });
  });

  it.each([
    ['openai', 'toolCallIds'],
    ['anthropic', 'toolUseIds'],
    ['gemini', 'functionResponseIds'],
  ])('%s: each call is answered by its id, in order (%s)', (client, field) => {
    expect(reports[client]?.[field]).toEqual(['call-notes', 'call-pixel']);
  });
});
