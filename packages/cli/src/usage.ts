import type { Subcommand } from './args.ts';

interface Flag {
  readonly usage: string;
  readonly meaning: string;
  readonly on: readonly Subcommand[];
}

const SESSION: readonly Subcommand[] = ['tools', 'call', 'undo', 'mcp'];
const RUNNING: readonly Subcommand[] = ['call', 'mcp'];

/** Every flag, what it means, and the subcommands it applies to (docs/contract.md §4). */
const FLAGS: readonly Flag[] = [
  { usage: '--cwd DIR', meaning: 'working directory (default: the current one); always a writable root', on: SESSION },
  { usage: '--root DIR', meaning: 'another writable root (repeatable)', on: SESSION },
  { usage: '--read-root DIR', meaning: 'a readable, never writable root (repeatable); writes there are `protected`', on: SESSION },
  { usage: '--skills-root DIR', meaning: 'the skill root, readable, never writable; default ~/.agents/skills when it exists', on: SESSION },
  {
    usage: '--mode MODE',
    meaning: 'default: writes and commands off the read-only list ask; acceptEdits: writes and mkdir/touch/cp/mv/rm inside the roots run; readOnly: write, edit and bash are left out',
    on: ['tools', 'call', 'mcp'],
  },
  { usage: '--trust-journal', meaning: 'undo: use a journal inside a writable root, where the tools could have changed it (otherwise undo asks on a terminal, or refuses)', on: ['undo'] },
  { usage: '--yes', meaning: 'approve every call that would ask; a deny rule still refuses, and no project folder is trusted', on: RUNNING },
  {
    usage: '--allow RULE',
    meaning:
      "run a command without asking when it starts with these words, e.g. --allow 'bash:npm test' (repeatable; also permissions.allow in ~/.config/openwork/settings.json, or $OPENWORK_CONFIG_DIR/settings.json, and in a trusted project's .openwork/settings.json)",
    on: RUNNING,
  },
  {
    usage: '--trust-project SHA256',
    meaning: "apply the allow rules of the project's .openwork/settings.json when the file has this SHA-256 (sha256sum .openwork/settings.json), without asking or recording; a changed file is not trusted",
    on: RUNNING,
  },
  {
    usage: '--pass-env NAME',
    meaning: 'give approved commands this variable, which is removed otherwise since its name holds KEY, SECRET, TOKEN, PASSWORD, PASSWD or CREDENTIAL (repeatable); a command that runs without approval never gets it',
    on: RUNNING,
  },
  { usage: '--timeout-ms N', meaning: 'deadline of each call, in milliseconds', on: RUNNING },
  { usage: '--memory-limit SIZE', meaning: "each bash command's own memory limit (512M, 2G), where the host has a memory cgroup; default a quarter of what the session's commands share, at most 4G", on: RUNNING },
  { usage: '--max-background N', meaning: 'background commands (bash runInBackground) a session may hold at once; default 8', on: ['mcp'] },
  { usage: '--background-buffer SIZE', meaning: 'unread output kept per stream of a background command, start and end together (256K, 4M); default 1M', on: ['mcp'] },
  { usage: '--search-cache SIZE', meaning: 'memory the server keeps between searches (file summaries), all sessions together (64M, 1G); default 256M', on: ['mcp'] },
  { usage: '--json', meaning: 'print JSON: the definitions, the ToolResult, the undo report or the host report', on: ['tools', 'call', 'undo', 'doctor'] },
  { usage: '--artifacts FILE', meaning: 'call, mcp: append each change (with its original) to FILE, for undo; undo: the journal to undo from', on: ['call', 'undo', 'mcp'] },
  { usage: '--change ID', meaning: 'undo only this change (repeatable); default: every change, newest first', on: ['undo'] },
  { usage: '--progress', meaning: 'stream progress events (bash output as it comes) to stderr as JSON lines', on: ['call'] },
  { usage: '--pty', meaning: 'bash runs on a pseudo-terminal (needs node-pty, an optional dependency)', on: RUNNING },
  { usage: '--columns N, --rows N', meaning: 'the size of that terminal; default 200x50', on: RUNNING },
  {
    usage: '--http [HOST:]PORT',
    meaning: 'serve MCP Streamable HTTP at http://HOST:PORT/mcp instead of stdio; HOST defaults to 127.0.0.1; every request needs the bearer token of OPENWORK_MCP_TOKEN (generated and printed to stderr when unset)',
    on: ['mcp'],
  },
  { usage: '--allow-origin ORIGIN', meaning: 'with --http: a browser origin whose requests are accepted besides the server’s own (repeatable)', on: ['mcp'] },
];

const SUMMARY: Readonly<Record<Subcommand, { readonly synopsis: string; readonly short: string; readonly text: string }>> = {
  tools: { synopsis: 'tools [--json] [FLAGS]', short: 'print the tool definitions the model is given', text: 'Prints the tool definitions the model is given, as the mode leaves them.' },
  call: {
    synopsis: 'call TOOL [INPUT|-] [FLAGS]',
    short: 'run one call; INPUT is a JSON object (- or absent: stdin)',
    text: [
      'Runs one call and prints its result. INPUT is a JSON object; - reads it from stdin (on a terminal: type it,',
      'then Ctrl-D); absent, it is read from stdin when stdin is not a terminal, else it is {}.',
      "  openwork-tools call read '{\"path\":\"README.md\",\"limit\":5}'",
      '`openwork-tools help TOOL` (or `call TOOL --help`) shows the input TOOL takes.',
      'Exit status: 0 ok; 1 error or denied; 2 usage error; 130/143/129 after SIGINT/SIGTERM/SIGHUP.',
    ].join('\n'),
  },
  undo: {
    synopsis: 'undo --artifacts FILE [--change ID]... [FLAGS]',
    short: 'undo the changes recorded in FILE, newest first',
    text: 'Restores the changes recorded in FILE, newest first; a file changed since is a conflict, left untouched (exit 1).',
  },
  mcp: {
    synopsis: 'mcp [FLAGS]',
    short: 'serve the toolset over MCP (stdio, or HTTP with --http)',
    text: [
      'Serves the toolset over MCP on stdio. Without --cwd or --root the roots are the client’s (MCP roots), or the',
      'current directory unless it is / or the home folder. An ask goes to the client as an MCP elicitation (approve or',
      'deny); a client without elicitation gets a denial naming what would let the call run (--allow RULE, --mode, --yes).',
      'A project’s allow rules apply once its folder is trusted: the client is asked at the first call they would approve,',
      'and the answer is recorded.',
      'With --http, each client that initializes gets a session of its own over the command line’s roots; closing it',
      '(DELETE, 30 minutes idle) answers its running calls as cancelled and ends their processes; losing the connection',
      'during a call cancels that call.',
    ].join('\n'),
  },
  doctor: { synopsis: 'doctor [--json]', short: 'which containment, directory handles and terminal this host gives', text: 'Says which bash containment, file system directory handles and terminal backend this host gives.' },
};

const SUBCOMMAND_ORDER: readonly Subcommand[] = ['tools', 'call', 'undo', 'mcp', 'doctor'];

/** Where a meaning wraps, so that help reads on an 100-column terminal. */
const LINE_WIDTH = 100;

function wrap(text: string, indent: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && indent + line.length + 1 + word.length > LINE_WIDTH) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

function flagLines(flags: readonly Flag[]): string[] {
  const width = Math.max(...flags.map((flag) => flag.usage.length)) + 2;
  return flags.map((flag) => `  ${flag.usage.padEnd(width)}${wrap(flag.meaning, width + 2)}`);
}

/** `openwork-tools --help`: every subcommand, and where each one's flags are described. */
export function overviewHelp(): string {
  const width = Math.max(...SUBCOMMAND_ORDER.map((name) => SUMMARY[name].synopsis.length)) + 2;
  return [
    'usage: openwork-tools <tools|call|undo|mcp|doctor|help> [args] [flags]',
    '',
    ...SUBCOMMAND_ORDER.map((name) => `  ${SUMMARY[name].synopsis.padEnd(width)}${SUMMARY[name].short}`),
    '',
    `  ${'help [SUBCOMMAND|TOOL]'.padEnd(width)}this help, a subcommand’s flags, or a tool’s input`,
    '',
    'openwork-tools help SUBCOMMAND (or SUBCOMMAND --help) shows its flags; openwork-tools help TOOL (or call TOOL --help)',
    'shows a tool’s input, with an example call.',
    '  --help, -h   this help',
    '  --version    the version',
  ].join('\n');
}

/** `openwork-tools SUBCOMMAND --help`: what it does and each flag it takes, with its meaning. */
export function subcommandHelp(subcommand: Subcommand): string {
  const { synopsis, text } = SUMMARY[subcommand];
  const flags = FLAGS.filter((flag) => flag.on.includes(subcommand));
  return [`usage: openwork-tools ${synopsis}`, '', text, '', 'flags:', ...flagLines(flags)].join('\n');
}
