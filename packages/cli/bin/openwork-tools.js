#!/usr/bin/env node
// The workspace runs the TypeScript sources through tsx's loader.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/main.ts');
process.exitCode = await runCli(process.argv.slice(2));
