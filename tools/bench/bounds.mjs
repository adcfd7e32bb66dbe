// The peak memory (VmHWM) of an MCP server answering one call that asks for
// much and is shown little: a deep grep page, a notebook of a million
// outputs. Speaks MCP over stdio by hand, one JSON line each way, and reads
// the server's /proc status after its answer, before it is closed.
//   node bounds.mjs '{"command": "node", "args": [".../bin.js", "mcp", "--cwd", DIR], "tool": "grep", "arguments": {...}}'
// prints {"vmHwmKiB": …, "summary": "…"}.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const spec = JSON.parse(process.argv[2] ?? '{}');
const server = spawn(spec.command, spec.args, { stdio: ['pipe', 'pipe', 'inherit'] });
const lines = createInterface({ input: server.stdout });
const waiting = new Map();
lines.on('line', (line) => {
  const message = JSON.parse(line);
  waiting.get(message.id)?.(message);
});
let next = 0;
const request = (method, params) =>
  new Promise((resolve) => {
    next += 1;
    waiting.set(next, resolve);
    server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: next, method, params })}\n`);
  });
const notify = (method) => server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);

await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench-bounds', version: '0' } });
notify('notifications/initialized');
const answer = await request('tools/call', { name: spec.tool, arguments: spec.arguments });
const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
const vmHwmKiB = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
server.stdin.end();
await new Promise((resolve) => server.once('exit', resolve));
const text = answer.result?.content?.find((part) => part.type === 'text')?.text ?? JSON.stringify(answer.error ?? answer.result);
console.log(JSON.stringify({ vmHwmKiB, summary: `${answer.result?.isError === true ? 'error: ' : ''}${text.split('\n').at(-1).slice(0, 120)}` }));
