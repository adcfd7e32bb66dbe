import { isPermissionMode, parseAllowRule, type AllowRule, type PermissionMode } from '@openwork/permission-policy';
import { helpOptions } from './help-args.ts';
import { UsageError } from './usage-error.ts';

export type { PermissionMode } from '@openwork/permission-policy';
export type Subcommand = 'tools' | 'call' | 'undo' | 'mcp' | 'doctor';

export interface CliOptions {
  readonly subcommand: Subcommand;
  readonly positionals: readonly string[];
  readonly cwd: string | undefined;
  readonly roots: readonly string[];
  readonly readRoots: readonly string[];
  readonly skillsRoot: string | undefined;
  readonly mode: PermissionMode;
  readonly yes: boolean;
  /** undo: use a journal inside a writable root. */
  readonly trustJournal: boolean;
  /** `--allow 'bash:npm test'`: command prefixes that run without asking, besides the project's settings. */
  readonly allow: readonly AllowRule[];
  /** `--trust-project SHA256`: the project's allow rules apply when its settings file has this digest. */
  readonly trustProject: string | undefined;
  /** `--pass-env NAME`: credential-like variables that approved commands get (auto-run ones never do). */
  readonly passEnv: readonly string[];
  readonly timeoutMs: number | undefined;
  /** `--memory-limit SIZE`: each bash command's own memory limit, in bytes, where the host has the memory controller. */
  readonly memoryLimitBytes: number | undefined;
  /** `mcp --max-background N`: background commands a session may hold at once (default 8). */
  readonly maxBackground: number | undefined;
  /** `mcp --background-buffer SIZE`: unread bytes kept per stream of a background command, head and tail together (default 1M). */
  readonly backgroundBufferBytes: number | undefined;
  /** `mcp --search-cache SIZE`: the memory the server's searches keep between calls, all sessions together (default 256M). */
  readonly searchCacheBytes: number | undefined;
  readonly json: boolean;
  readonly artifacts: string | undefined;
  readonly changes: readonly string[];
  readonly progress: boolean;
  /** `--pty`: bash runs on a pseudo-terminal, of the size given by `--columns` / `--rows` when either is. */
  readonly pty: TerminalOptions | undefined;
  /** `mcp --http [HOST:]PORT`: serve MCP Streamable HTTP there instead of stdio. */
  readonly http: HttpListen | undefined;
  /** `--allow-origin ORIGIN`: browser origins, besides the server's own, whose requests `--http` accepts. */
  readonly allowOrigins: readonly string[];
  readonly help: boolean;
  /** `--help` with no subcommand: the overview of every subcommand. */
  readonly overview: boolean;
  readonly version: boolean;
}

/** Where `mcp --http` listens. */
export interface HttpListen {
  /** An address or a host name; `127.0.0.1` when only a port is given. */
  readonly host: string;
  /** 0 asks the system for a free port, printed once listening. */
  readonly port: number;
}

export interface TerminalOptions {
  readonly columns: number | undefined;
  readonly rows: number | undefined;
}

const SUBCOMMANDS: readonly Subcommand[] = ['tools', 'call', 'undo', 'mcp', 'doctor'];
const VALUED = new Set(['--cwd', '--root', '--read-root', '--skills-root', '--mode', '--allow', '--timeout-ms', '--artifacts', '--change', '--columns', '--rows', '--http', '--allow-origin', '--trust-project', '--pass-env', '--memory-limit', '--max-background', '--background-buffer', '--search-cache']);
const BOOLEAN = new Set(['--trust-journal', '--yes', '--json', '--progress', '--pty', '--help', '-h', '--version']);
/** The largest size a terminal's window size (two 16-bit fields) can hold. */
const MAX_TERMINAL_SIZE = 65_535;

/** Parses the command line of docs/contract.md §4; anything unknown is a UsageError. */
export function parseArgs(argv: readonly string[]): CliOptions {
  const values = new Map<string, string[]>();
  const flags = new Set<string>();
  const positionals: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const word = argv[index] ?? '';
    if (word === '-' || !word.startsWith('-')) {
      positionals.push(word);
      continue;
    }
    if (word === '--') {
      positionals.push(...argv.slice(index + 1));
      break;
    }
    const equals = word.indexOf('=');
    const name = equals === -1 ? word : word.slice(0, equals);
    if (BOOLEAN.has(name)) {
      if (equals !== -1) throw new UsageError(`${name} takes no value`);
      flags.add(name === '-h' ? '--help' : name);
    } else if (VALUED.has(name)) {
      const value = equals === -1 ? argv[++index] : word.slice(equals + 1);
      if (value === undefined || value === '') throw new UsageError(`${name} needs a value`);
      values.set(name, [...(values.get(name) ?? []), value]);
    } else {
      throw new UsageError(`unknown flag ${name}; see openwork-tools --help`);
    }
  }
  const help = flags.has('--help');
  if (flags.has('--version')) return { ...defaults(), version: true };
  const [first, ...rest] = positionals;
  if (first === undefined) {
    if (help) return { ...defaults(), help, overview: true };
    throw new UsageError('missing subcommand: tools, call, undo, mcp, doctor or help');
  }
  if (first === 'help') return helpOptions(rest, defaults(), SUBCOMMANDS);
  if (!SUBCOMMANDS.includes(first as Subcommand)) throw new UsageError(`unknown subcommand ${JSON.stringify(first)}; use tools, call, undo, mcp, doctor or help`);
  const single = (name: string): string | undefined => {
    const given = values.get(name);
    if (given && given.length > 1) throw new UsageError(`${name} may be given once`);
    return given?.[0];
  };
  const mode = single('--mode') ?? 'default';
  if (!isPermissionMode(mode)) throw new UsageError(`--mode must be default, acceptEdits or readOnly, not ${JSON.stringify(mode)}`);
  const timeout = single('--timeout-ms');
  let timeoutMs: number | undefined;
  if (timeout !== undefined) {
    timeoutMs = Number(timeout);
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) throw new UsageError(`--timeout-ms must be a positive integer of milliseconds, not ${JSON.stringify(timeout)}`);
  }
  return {
    subcommand: first as Subcommand,
    positionals: rest,
    cwd: single('--cwd'),
    roots: values.get('--root') ?? [],
    readRoots: values.get('--read-root') ?? [],
    skillsRoot: single('--skills-root'),
    mode,
    yes: flags.has('--yes'),
    trustJournal: flags.has('--trust-journal'),
    allow: (values.get('--allow') ?? []).map((text) => {
      const parsed = parseAllowRule(text);
      if (!parsed.ok) throw new UsageError(`--allow ${parsed.message}`);
      return parsed.rule;
    }),
    trustProject: trustedDigest(single('--trust-project')),
    passEnv: (values.get('--pass-env') ?? []).map(passEnvName),
    timeoutMs,
    memoryLimitBytes: byteSize('--memory-limit', single('--memory-limit')),
    maxBackground: positiveCount('--max-background', single('--max-background')),
    backgroundBufferBytes: byteSize('--background-buffer', single('--background-buffer'), { bytes: 1024, text: '1K' }),
    searchCacheBytes: byteSize('--search-cache', single('--search-cache'), { bytes: 2 * 1024 ** 2, text: '2M' }),
    json: flags.has('--json'),
    artifacts: single('--artifacts'),
    changes: values.get('--change') ?? [],
    progress: flags.has('--progress'),
    pty: terminalOptions(first as Subcommand, flags, single),
    ...httpOptions(first as Subcommand, single('--http'), values.get('--allow-origin') ?? []),
    help,
    overview: false,
    version: false,
  };
}

function positiveCount(name: string, given: string | undefined): number | undefined {
  if (given === undefined) return undefined;
  const count = Number(given);
  if (!Number.isSafeInteger(count) || count <= 0) throw new UsageError(`${name} must be a positive integer, not ${JSON.stringify(given)}`);
  return count;
}

const BYTE_UNITS: Readonly<Record<string, number>> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/** A size in bytes, with an optional K, M or G (powers of 1024): `64M`. */
/** A size in bytes, or with K, M or G; by default at least 4M, below which bash itself cannot start. */
function byteSize(flag: string, given: string | undefined, least: { readonly bytes: number; readonly text: string } = { bytes: 4 * 1024 ** 2, text: '4M' }): number | undefined {
  if (given === undefined) return undefined;
  const parts = /^(\d+)([KMG]?)$/i.exec(given);
  const bytes = parts === null ? Number.NaN : Number(parts[1]) * (BYTE_UNITS[(parts[2] ?? '').toUpperCase()] ?? Number.NaN);
  if (!Number.isSafeInteger(bytes) || bytes < least.bytes) throw new UsageError(`${flag} takes a size of at least ${least.text}, in bytes or with K, M or G (${flag} 512M), not ${JSON.stringify(given)}`);
  return bytes;
}

function trustedDigest(given: string | undefined): string | undefined {
  if (given === undefined) return undefined;
  if (!/^[0-9a-fA-F]{64}$/.test(given)) throw new UsageError(`--trust-project takes the SHA-256 of .openwork/settings.json, 64 hexadecimal digits (sha256sum .openwork/settings.json), not ${JSON.stringify(given)}`);
  return given.toLowerCase();
}

/** A variable name as the shell writes one; the tools' own `OPENWORK_*` variables never reach a command. */
function passEnvName(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`--pass-env takes the name of a variable, such as MY_API_KEY, not ${JSON.stringify(name)}`);
  if (name.toUpperCase().startsWith('OPENWORK_')) throw new UsageError(`--pass-env ${name}: the tools' own OPENWORK_ variables never reach a command`);
  return name;
}

function terminalOptions(subcommand: Subcommand, flags: ReadonlySet<string>, single: (name: string) => string | undefined): TerminalOptions | undefined {
  const pty = flags.has('--pty');
  const size = (name: string): number | undefined => {
    const given = single(name);
    if (given === undefined) return undefined;
    if (!pty) throw new UsageError(`${name} sets the size of the terminal of --pty; add --pty`);
    const value = Number(given);
    if (!Number.isSafeInteger(value) || value < 1 || value > MAX_TERMINAL_SIZE) throw new UsageError(`${name} must be a whole number from 1 to ${MAX_TERMINAL_SIZE}, not ${JSON.stringify(given)}`);
    return value;
  };
  const columns = size('--columns');
  const rows = size('--rows');
  if (!pty) return undefined;
  if (subcommand !== 'call' && subcommand !== 'mcp') throw new UsageError('--pty applies to call and mcp, where bash runs');
  return { columns, rows };
}

/** `[HOST:]PORT`, `[IPV6]:PORT`; loopback when no host is named. */
export function parseListen(text: string): HttpListen {
  const match = /^(?:(?:\[([^\]]+)\]|([^:[\]]+)):)?(\d{1,5})$/.exec(text);
  const port = Number(match?.[3]);
  if (match === null || port > 65_535) {
    throw new UsageError(`--http takes PORT or HOST:PORT (e.g. --http 8765, --http 127.0.0.1:8765, --http [::1]:8765), not ${JSON.stringify(text)}`);
  }
  return { host: match[1] ?? match[2] ?? '127.0.0.1', port };
}

function httpOptions(subcommand: Subcommand, listen: string | undefined, origins: readonly string[]): Pick<CliOptions, 'http' | 'allowOrigins'> {
  if (listen === undefined) {
    if (origins.length > 0) throw new UsageError('--allow-origin applies to mcp --http; add --http');
    return { http: undefined, allowOrigins: [] };
  }
  if (subcommand !== 'mcp') throw new UsageError('--http applies to mcp, which it serves over HTTP');
  const allowOrigins = origins.map((origin) => {
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      throw new UsageError(`--allow-origin takes an origin such as https://app.example.com, not ${JSON.stringify(origin)}`);
    }
    if (parsed.origin === 'null' || parsed.origin !== origin.replace(/\/$/, '')) throw new UsageError(`--allow-origin takes an origin (scheme, host and port, no path), not ${JSON.stringify(origin)}`);
    return parsed.origin;
  });
  return { http: parseListen(listen), allowOrigins };
}

function defaults(): CliOptions {
  return {
    subcommand: 'tools',
    positionals: [],
    cwd: undefined,
    roots: [],
    readRoots: [],
    skillsRoot: undefined,
    mode: 'default',
    yes: false,
    trustJournal: false,
    allow: [],
    trustProject: undefined,
    passEnv: [],
    timeoutMs: undefined,
    memoryLimitBytes: undefined,
    maxBackground: undefined,
    backgroundBufferBytes: undefined,
    searchCacheBytes: undefined,
    json: false,
    artifacts: undefined,
    changes: [],
    progress: false,
    pty: undefined,
    http: undefined,
    allowOrigins: [],
    help: false,
    overview: false,
    version: false,
  };
}
