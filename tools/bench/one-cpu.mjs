// The MCP server on one CPU (taskset -c 0) searching past a tree of many
// ignored files, then answering the next call: whether it survives, and how
// long each call took, with the SDK's client on stdio.
//   node one-cpu.mjs '{"command": "taskset", "args": [...], "grep": {...}, "next": {"tool": "read", "arguments": {...}}}'
// prints {"grepMs": …, "grep": "…", "nextMs": …, "next": "…", "alive": true}.
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const spec = JSON.parse(process.argv[2] ?? '{}');
const transport = new StdioClientTransport({ command: spec.command, args: spec.args, stderr: 'inherit' });
const client = new Client({ name: 'openwork-bench', version: '0.0.0' });
await client.connect(transport);
const text = (result) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
const timed = async (tool, input) => {
  const started = performance.now();
  try {
    const result = await client.callTool({ name: tool, arguments: input }, undefined, { timeout: 600_000 });
    return { ms: performance.now() - started, summary: `${result.isError === true ? 'error: ' : ''}${text(result).split('\n').at(-1)?.slice(0, 120) ?? ''}` };
  } catch (error) {
    return { ms: performance.now() - started, summary: `no answer: ${error instanceof Error ? error.message : String(error)}` };
  }
};
const grep = await timed('grep', spec.grep);
const next = await timed(spec.next.tool, spec.next.arguments);
const alive = transport.pid !== null && (() => {
  try {
    process.kill(transport.pid, 0);
    return true;
  } catch {
    return false;
  }
})();
await client.close();
console.log(JSON.stringify({ grepMs: grep.ms, grep: grep.summary, nextMs: next.ms, next: next.summary, alive }));
