// Bundles the command into one file: a cold start then reads one module
// instead of several hundred. Native and WebAssembly-loading packages stay
// outside the bundle and are resolved from node_modules. An argument names
// another place for the bundle (a test runs it from there).
import { resolve } from 'node:path';
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('./src/bin.ts', import.meta.url).pathname],
  outfile: process.argv[2] === undefined ? new URL('./dist/openwork-tools.js', import.meta.url).pathname : resolve(process.argv[2]),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // The SDK's Streamable HTTP server (and the HTTP stack under it) is loaded from node_modules by `mcp --http` alone.
  external: ['node-pty', 'web-tree-sitter', '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'],
  // CommonJS dependencies inside an ESM bundle still call require().
  banner: { js: "import { createRequire as __openworkRequire } from 'node:module'; const require = __openworkRequire(import.meta.url);" },
  legalComments: 'linked',
  logLevel: 'warning',
});
