// Round-trip latency of sequential tools/call requests to an MCP server on
// stdio, measured with the SDK's client.
//   node mcp-latency.mjs '{"command": "node", "args": [...], "tool": "read", "arguments": {...}, "calls": 1000}'
// prints {"samples": [ms, …]}.
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const spec = JSON.parse(process.argv[2] ?? '{}');
const client = new Client({ name: 'openwork-bench', version: '0.0.0' });
await client.connect(new StdioClientTransport({ command: spec.command, args: spec.args, stderr: 'ignore' }));
const call = () => client.callTool({ name: spec.tool, arguments: spec.arguments });
// Warm both the server and the client before anything is counted.
for (let index = 0; index < 20; index += 1) await call();
const samples = [];
for (let index = 0; index < spec.calls; index += 1) {
  const started = performance.now();
  const result = await call();
  samples.push(performance.now() - started);
  if (result.isError === true) {
    console.error(JSON.stringify(result.content));
    process.exit(1);
  }
}
await client.close();
console.log(JSON.stringify({ samples }));
