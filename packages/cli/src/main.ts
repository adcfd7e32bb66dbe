import { text } from 'node:stream/consumers';
import { parseArgs } from './args.ts';
import type { CommandIo } from './call-command.ts';
import { UsageError } from './usage-error.ts';
import { overviewHelp, subcommandHelp } from './usage.ts';
import { VERSION } from './version.ts';

/**
 * Writes to a stream until it fails. A reader that went away (EPIPE under
 * `| head -c 100`, EIO from a closed terminal) ends the output quietly, with
 * the command's usual exit status: an unhandled stream error would print a
 * stack trace instead.
 */
function untilClosed(stream: NodeJS.WriteStream, onFailure: (error: NodeJS.ErrnoException) => void = () => {}): (chunk: string) => void {
  let open = true;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (open) onFailure(error);
    open = false;
  });
  return (chunk) => {
    if (open) stream.write(chunk);
  };
}

const READER_GONE = new Set(['EPIPE', 'EIO', 'ECONNRESET']);

function defaultIo(): CommandIo {
  const stderr = untilClosed(process.stderr);
  const stdout = untilClosed(process.stdout, (error) => {
    // Any other failure (a full disk under `> out.json`) is worth one line.
    if (!READER_GONE.has(error.code ?? '')) stderr(`openwork-tools: stdout: ${error.message}\n`);
  });
  return {
    stdout,
    stderr,
    readStdin: () => text(process.stdin),
    interactive: Boolean(process.stdin.isTTY && process.stderr.isTTY),
    stdinTerminal: Boolean(process.stdin.isTTY),
  };
}

/** Runs the command line and returns the exit status (docs/contract.md §4). */
export async function runCli(argv: readonly string[], io: CommandIo = defaultIo()): Promise<number> {
  try {
    const options = parseArgs(argv);
    if (options.version) {
      io.stdout(`openwork-tools ${VERSION}\n`);
      return 0;
    }
    if (options.help) {
      const [tool] = options.positionals;
      if (options.overview) io.stdout(`${overviewHelp()}\n`);
      else if (options.subcommand === 'call' && tool !== undefined) io.stdout(`${(await import('./tool-help.ts')).toolHelp(tool)}\n`);
      else io.stdout(`${subcommandHelp(options.subcommand)}\n`);
      return 0;
    }
    switch (options.subcommand) {
      // Each subcommand loads only what it needs: `tools` starts without the MCP SDK.
      case 'tools':
        return await (await import('./tools-command.ts')).toolsCommand(options, io);
      case 'call':
        return await (await import('./call-command.ts')).callCommand(options, io);
      case 'undo':
        return await (await import('./undo-command.ts')).undoCommand(options, io);
      case 'mcp':
        if (options.http !== undefined) return await (await import('./mcp/http-command.ts')).mcpHttpCommand(options, io);
        return await (await import('./mcp/mcp-command.ts')).mcpCommand(options, io);
      case 'doctor':
        return await (await import('./doctor-command.ts')).doctorCommand(options, io);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`openwork-tools: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
