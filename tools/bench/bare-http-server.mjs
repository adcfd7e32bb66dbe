// The SDK's bare Streamable HTTP server, the baseline of the HTTP round trip:
// one McpServer and one StreamableHTTPServerTransport per session behind a
// plain node:http server, as the SDK's own example has it, and one trivial
// tool that reads a small file.
//   node bare-http-server.mjs FILE   prints "serving MCP over HTTP at URL" to stderr
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

const file = process.argv[2] ?? '';
const transports = new Map();

function session() {
  const server = new McpServer({ name: 'bare', version: '0.0.0' });
  server.registerTool('read_text', { description: 'Reads the file.', inputSchema: {} }, async () => ({ content: [{ type: 'text', text: await readFile(file, 'utf8') }] }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => transports.set(id, transport) });
  transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
  return server.connect(transport).then(() => transport);
}

const http = createServer(async (request, response) => {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
  const id = request.headers['mcp-session-id'];
  let transport = typeof id === 'string' ? transports.get(id) : undefined;
  if (transport === undefined && isInitializeRequest(body)) transport = await session();
  if (transport === undefined) {
    response.writeHead(400).end();
    return;
  }
  await transport.handleRequest(request, response, body);
});
http.listen(0, '127.0.0.1', () => process.stderr.write(`serving MCP over HTTP at http://127.0.0.1:${http.address().port}/mcp\n`));
process.on('SIGTERM', () => process.exit(0));
