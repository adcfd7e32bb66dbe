// The MCP SDK's own client over stdio to the installed command: a call's
// content is what an MCP host hands its model (text content, image content).
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { READS } from './fixture.mjs';

export default async function mcpSdkClient({ workspace }) {
  const transport = new StdioClientTransport({
    command: join(process.cwd(), 'node_modules', '.bin', 'openwork-tools'),
    args: ['mcp', '--cwd', workspace],
    stderr: 'pipe',
  });
  const client = new Client({ name: 'package-check', version: '0.0.0' });
  await client.connect(transport);
  try {
    const texts = [];
    const images = [];
    for (const read of READS) {
      const result = await client.callTool({ name: 'read', arguments: read.input });
      if (result.isError) throw new Error(`read ${read.input.path}: ${JSON.stringify(result.content)}`);
      for (const part of result.content) {
        if (part.type === 'text') texts.push(part.text);
        else if (part.type === 'image') images.push({ mediaType: part.mimeType, data: part.data });
      }
    }
    return { texts, images };
  } finally {
    await client.close();
  }
}
