#!/usr/bin/env node
// The installed command: built JavaScript, no TypeScript loader.
import { runCli } from './main.ts';

process.exitCode = await runCli(process.argv.slice(2));
