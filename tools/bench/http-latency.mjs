// Round-trip latency of sequential tools/call requests to MCP servers over
// Streamable HTTP, measured with the SDK's client. The servers take turns,
// one call each, so that a machine busy with something else slows them alike.
//   node http-latency.mjs '{"servers": [{"url": "http://127.0.0.1:PORT/mcp", "token": "…", "tool": "read", "arguments": {...}}, …], "calls": 1000}'
// prints {"samples": [[ms, …], …]}, one list per server.
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const spec = JSON.parse(process.argv[2] ?? '{}');
const servers = [];
for (const server of spec.servers) {
  const headers = server.token === undefined ? {} : { authorization: `Bearer ${server.token}` };
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } });
  const client = new Client({ name: 'openwork-bench', version: '0.0.0' });
  await client.connect(transport);
  servers.push({ transport, call: () => client.callTool({ name: server.tool, arguments: server.arguments }), samples: [], client });
}
// Warm the servers and the client before anything is counted.
for (let index = 0; index < 50; index += 1) for (const server of servers) await server.call();
for (let index = 0; index < spec.calls; index += 1) {
  for (const server of servers) {
    const started = performance.now();
    const result = await server.call();
    server.samples.push(performance.now() - started);
    if (result.isError === true) {
      console.error(JSON.stringify(result.content));
      process.exit(1);
    }
  }
}
for (const server of servers) {
  await server.transport.terminateSession();
  await server.client.close();
}
console.log(JSON.stringify({ samples: servers.map((server) => server.samples) }));
