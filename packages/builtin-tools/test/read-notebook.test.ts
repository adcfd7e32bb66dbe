import type { ToolResult } from '@openwork/tool-contract';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinTools, type ReadData } from '../src/index.ts';
import { errorKind } from './harness.ts';
import { png } from './image-samples.ts';
import { callTool, memoryWorld, nodeWorld, type SearchWorld } from './search-world.ts';

const readSchema = builtinTools().find((tool) => tool.definition.name === 'read')?.definition.outputSchema as TSchema;

function checkedData(result: ToolResult): ReadData {
  expect(result.status, result.output).toBe('ok');
  const data: unknown = JSON.parse(JSON.stringify(result.data));
  expect([...Value.Errors(readSchema, data)].map((error) => `${error.instancePath} ${error.message}`)).toEqual([]);
  return result.data as ReadData;
}

const ESC = '\u001b';
const FIGURE = png(6, 4);
const FIGURE_BASE64 = FIGURE.toString('base64');
/** As Jupyter writes it: base64 wrapped in lines. */
const WRAPPED = `${FIGURE_BASE64.match(/.{1,76}/gu)?.join('\n') ?? ''}\n`;

const NOTEBOOK = {
  nbformat: 4,
  nbformat_minor: 5,
  metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' }, language_info: { name: 'python' } },
  cells: [
    { cell_type: 'markdown', id: 'intro', metadata: {}, source: ['# Sales\n', 'A look at the numbers.'] },
    {
      cell_type: 'code',
      id: 'load',
      execution_count: 1,
      metadata: {},
      source: 'import pandas as pd\nprint("loaded")',
      outputs: [
        { output_type: 'stream', name: 'stdout', text: ['loaded\n', 'step 1\rstep 2\n'] },
        { output_type: 'execute_result', execution_count: 1, metadata: {}, data: { 'text/plain': ['   a  b\n', '0  1  2'], 'text/html': ['<table></table>'] } },
      ],
    },
    {
      cell_type: 'code',
      execution_count: 2,
      metadata: {},
      source: ['plot()'],
      outputs: [{ output_type: 'display_data', metadata: {}, data: { 'image/png': WRAPPED, 'text/plain': ['<Figure size 600x400 with 1 Axes>'] } }],
    },
    {
      cell_type: 'code',
      execution_count: 3,
      metadata: {},
      source: '1/0',
      outputs: [
        {
          output_type: 'error',
          ename: 'ZeroDivisionError',
          evalue: 'division by zero',
          traceback: [`${ESC}[0;31m----------${ESC}[0m`, `${ESC}[0;31mZeroDivisionError${ESC}[0m: division by zero`],
        },
        { output_type: 'display_data', metadata: {}, data: { 'application/vnd.jupyter.widget-view+json': { model_id: 'x' } } },
      ],
    },
    { cell_type: 'raw', metadata: {}, source: '' },
  ],
};

const EXPECTED = [
  '[analysis.ipynb: Jupyter notebook (python), 5 cells; offset and limit count cells]',
  '[cell 1: markdown, id "intro"]',
  '# Sales',
  'A look at the numbers.',
  '[cell 2: code, execution_count 1, id "load"]',
  'import pandas as pd',
  'print("loaded")',
  '[cell 2 output 1: stream stdout]',
  'loaded',
  'step 2',
  '[cell 2 output 2: execute_result]',
  '   a  b',
  '0  1  2',
  '[cell 3: code, execution_count 2]',
  'plot()',
  `[cell 3 output 1: display_data; PNG image, 6x4 pixels, ${FIGURE.length} bytes: attached as image 1]`,
  '<Figure size 600x400 with 1 Axes>',
  '[cell 4: code, execution_count 3]',
  '1/0',
  '[cell 4 output 1: error ZeroDivisionError: division by zero]',
  '----------',
  'ZeroDivisionError: division by zero',
  '[cell 4 output 2: display_data; application/vnd.jupyter.widget-view+json not shown]',
  '[cell 5: raw]',
  '(empty)',
].join('\n');

describe.each([
  ['node', nodeWorld],
  ['memory', memoryWorld],
])('read of Jupyter notebooks on the %s file system', (_name, makeWorld) => {
  let world: SearchWorld;
  afterEach(() => world.cleanup());

  async function session(notebook: unknown = NOTEBOOK, limits = {}) {
    world = await makeWorld();
    await world.file('analysis.ipynb', typeof notebook === 'string' ? notebook : JSON.stringify(notebook, null, 1));
    return world.session({ limits });
  }

  it('renders the cells in order with their type, source and text outputs; an image output is an image part, no base64 and no ANSI codes in the text', async () => {
    const result = await callTool(await session(), 'read', { path: 'analysis.ipynb' });
    const data = checkedData(result);
    expect(result.output).toBe(EXPECTED);
    expect(data).toMatchObject({ kind: 'notebook', offset: 0, lineCount: 5, totalLines: 5, truncated: false, notebook: { cells: 5, language: 'python', images: 1, omittedImages: 0 } });
    expect(data.nextOffset).toBeUndefined();
    expect(data.content).toBe(`${EXPECTED.split('\n').slice(1).join('\n')}\n`);
    expect(result.status === 'ok' && result.images).toEqual([{ type: 'image', mediaType: 'image/png', data: FIGURE_BASE64 }]);
    expect(result.output).not.toContain(FIGURE_BASE64.slice(0, 16));
    expect(result.output).not.toContain(ESC);
  });

  it('offset and limit count cells; the data and the last line say where to go on', async () => {
    const s = await session();
    const page = await callTool(s, 'read', { path: 'analysis.ipynb', offset: 1, limit: 2 });
    expect(checkedData(page)).toMatchObject({ offset: 1, lineCount: 2, totalLines: 5, truncated: true, nextOffset: 3 });
    const lines = page.output.split('\n');
    expect(lines[1]).toBe('[cell 2: code, execution_count 1, id "load"]');
    expect(lines.at(-1)).toBe('[showing cells 2-3 of 5; continue with offset 3]');
    expect(page.status === 'ok' && page.images?.length).toBe(1);
    const rest = await callTool(s, 'read', { path: 'analysis.ipynb', offset: 3 });
    expect(checkedData(rest)).toMatchObject({ offset: 3, lineCount: 2, truncated: false });
    expect('images' in rest).toBe(false);
    const past = await callTool(s, 'read', { path: 'analysis.ipynb', offset: 9 });
    expect(errorKind(past)).toBe('invalid_input');
    expect(past.output).toContain('a notebook of 5 cells (offset and limit count cells)');
  });

  it('an image output above what is left of the image limit is named, not attached', async () => {
    const result = await callTool(await session(NOTEBOOK, { maxImageBytes: 50 }), 'read', { path: 'analysis.ipynb' });
    const data = checkedData(result);
    expect(data.notebook).toMatchObject({ images: 0, omittedImages: 1 });
    expect(result.output).toContain(`[cell 3 output 1: display_data; PNG image, 6x4 pixels, ${FIGURE.length} bytes: not attached, above what is left of the image limit of one read]`);
    expect(result.output).toContain('[1 image output(s) were not attached: one read attaches at most 50 bytes of images]');
    expect('images' in result).toBe(false);
  });

  it('whole cells within the content cap; a first cell above it is cut at a line and says so', async () => {
    const s = await session(NOTEBOOK, { maxContentBytes: 120 });
    const first = await callTool(s, 'read', { path: 'analysis.ipynb' });
    expect(checkedData(first)).toMatchObject({ lineCount: 1, truncated: true, nextOffset: 1 });
    const big = await callTool(s, 'read', { path: 'analysis.ipynb', offset: 1 });
    expect(checkedData(big)).toMatchObject({ lineCount: 1, nextOffset: 2 });
    expect(big.output).toContain('[cell 2 was cut after');
    expect(big.output).toContain('larger than the 120 bytes output cap]');
  });

  it('a malformed notebook is read as plain text, by lines, with a note saying why', async () => {
    const broken = '{"cells": [\n  {"cell_type": "code", "source": "x = 1"\n';
    const result = await callTool(await session(broken), 'read', { path: 'analysis.ipynb' });
    const data = checkedData(result);
    expect(data).toEqual({ path: 'analysis.ipynb', content: broken, offset: 0, lineCount: 2, totalLines: 2, truncated: false });
    expect(result.output).toMatch(/^ {5}1\t\{"cells": \[\n/u);
    expect(result.output).toMatch(/\[analysis\.ipynb is not a notebook read can render \(it is not valid JSON: .+\); it is shown as plain text, and offset and limit count lines\]$/u);
  });

  it('JSON that is not an nbformat 4 notebook is plain text too, with the reason', async () => {
    world = await makeWorld();
    const cases = [
      [{ worksheets: [{ cells: [] }], nbformat: 3 }, 'it is an nbformat 3 notebook, and only nbformat 4 is rendered'],
      [{ metadata: {} }, 'it has no "cells" list'],
      [{ cells: [{ cell_type: 'code', source: 7 }] }, 'cell 1 has no "cell_type" or no text "source"'],
      [{ cells: [{ cell_type: 'code', source: 'x', outputs: {} }] }, 'the outputs of cell 1 are not a list of objects'],
      [[1, 2], 'its JSON is not an object'],
    ] as const;
    for (const [index, [notebook]] of cases.entries()) await world.file(`case${index}.ipynb`, JSON.stringify(notebook));
    const s = await world.session();
    for (const [index, [, reason]] of cases.entries()) {
      const result = await callTool(s, 'read', { path: `case${index}.ipynb` });
      expect(checkedData(result).kind).toBeUndefined();
      expect(result.output).toContain(`(${reason}); it is shown as plain text`);
    }
  });

  it('a notebook with no cells says so', async () => {
    const result = await callTool(await session({ cells: [], metadata: {}, nbformat: 4, nbformat_minor: 5 }), 'read', { path: 'analysis.ipynb' });
    expect(checkedData(result)).toMatchObject({ kind: 'notebook', lineCount: 0, totalLines: 0, content: '' });
    expect(result.output).toBe('[analysis.ipynb: Jupyter notebook, 0 cells; offset and limit count cells]\n[analysis.ipynb has no cells]');
  });

  it('a notebook above the whole-file limit is too_large, pointing at its JSON', async () => {
    const result = await callTool(await session(NOTEBOOK, { maxReadFileBytes: 256 }), 'read', { path: 'analysis.ipynb' });
    expect(errorKind(result)).toBe('too_large');
    expect(result.output).toContain('analysis.ipynb is a notebook larger than 256 bytes, too large to render');
  });

  it('reading a notebook lets edit change its JSON, with the staleness check of any read', async () => {
    const s = await session();
    await callTool(s, 'read', { path: 'analysis.ipynb' });
    const edited = await callTool(s, 'edit', { path: 'analysis.ipynb', oldText: '"source": "1/0"', newText: '"source": "1/1"' });
    expect(edited.status, edited.output).toBe('ok');
    const again = await callTool(s, 'read', { path: 'analysis.ipynb', offset: 3, limit: 1 });
    expect(again.output).toContain('[cell 4: code, execution_count 3]\n1/1\n');
  });
});
