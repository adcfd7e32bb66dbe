import { text } from 'node:stream/consumers';
import { parseArgs } from './args.ts';
import { callCommand, type CommandIo } from './call-command.ts';
import { mcpCommand } from './mcp/mcp-command.ts';
import { toolsCommand } from './tools-command.ts';
import { undoCommand } from './undo-command.ts';
import { USAGE, UsageError } from './usage-error.ts';

function defaultIo(): CommandIo {
  return {
    stdout: (chunk) => void process.stdout.write(chunk),
    stderr: (chunk) => void process.stderr.write(chunk),
    readStdin: () => (process.stdin.isTTY ? Promise.resolve('') : text(process.stdin)),
    interactive: Boolean(process.stdin.isTTY && process.stderr.isTTY),
  };
}

/** Runs the command line and returns the exit status (CONTRACT.md §4). */
export async function runCli(argv: readonly string[], io: CommandIo = defaultIo()): Promise<number> {
  try {
    const options = parseArgs(argv);
    if (options.help) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    switch (options.subcommand) {
      case 'tools':
        return await toolsCommand(options, io);
      case 'call':
        return await callCommand(options, io);
      case 'undo':
        return await undoCommand(options, io);
      case 'mcp':
        return await mcpCommand(options, io);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`openwork-tools: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
