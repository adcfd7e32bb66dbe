/** A command line that cannot be run: printed as one line on stderr, exit status 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const USAGE = `usage: openwork-tools <tools|call|undo|mcp|doctor> [args] [flags]
  tools [--json]                      print the finalized tool definitions
  call TOOL [INPUT|-]                 run one call; INPUT is a JSON object (- or absent: stdin)
  undo --artifacts FILE [--change ID]...
  doctor [--json]                     which bash containment (cgroup or process group), file system
                                      directory handles and terminal backend this host gives
  mcp                                 serve the toolset over MCP (stdio); without --cwd or --root
                                      the roots are the client's (MCP roots) or the current directory
flags: --cwd DIR --root DIR --read-root DIR --skills-root DIR
       --mode default|acceptEdits|readOnly --yes --timeout-ms N --json
       --artifacts FILE --change ID --progress
       --pty [--columns N] [--rows N]  (call, mcp) bash runs on a terminal, 200x50 unless given`;
