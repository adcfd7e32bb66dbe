import { errorResult, type ToolResult } from '@openwork/tool-contract';
import { describe, expect, it } from 'vitest';
import { progressMessage, toMcpCallResult } from './call-result.ts';

const ok = (data: unknown): ToolResult => ({ tool: 'list', toolId: null, callId: '1', status: 'ok', output: 'the text', data, artifacts: [] });

describe('toMcpCallResult (docs/contract.md §5)', () => {
  it('sends the output as text and a JSON object data as structured content', () => {
    expect(toMcpCallResult(ok({ path: '.', size: undefined }))).toEqual({
      content: [{ type: 'text', text: 'the text' }],
      isError: false,
      structuredContent: { path: '.' },
    });
  });

  it('leaves out data that is not a JSON object', () => {
    for (const data of [null, [1], 'text', 3, undefined]) expect(toMcpCallResult(ok(data))).not.toHaveProperty('structuredContent');
  });

  it('marks error and denied results as isError with their error text', () => {
    const denied = errorResult({ tool: 'bash', toolId: null, callId: '2', error: { kind: 'denied', message: 'bash was not run' } });
    expect(toMcpCallResult(denied)).toEqual({ content: [{ type: 'text', text: 'Error [denied]: bash was not run' }], isError: true });
    const missing = errorResult({ tool: 'read', toolId: null, callId: '3', error: { kind: 'not_found', message: 'no file' } });
    expect(toMcpCallResult(missing).isError).toBe(true);
  });

  it('sends an image a result carries as MCP image content after the text, never in it', () => {
    const withImage: ToolResult = {
      tool: 'read',
      toolId: null,
      callId: '1',
      status: 'ok',
      output: 'a.png: PNG image',
      data: { kind: 'image' },
      artifacts: [],
      images: [{ type: 'image', mediaType: 'image/png', data: 'AAAA' }],
    };
    expect(toMcpCallResult(withImage).content).toEqual([
      { type: 'text', text: 'a.png: PNG image' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    ]);
  });

  it('carries the text of each progress event', () => {
    expect([{ kind: 'stdout', chunk: 'a' } as const, { kind: 'stderr', chunk: 'b' } as const, { kind: 'message', message: 'c' } as const].map(progressMessage)).toEqual(['a', 'b', 'c']);
  });
});
