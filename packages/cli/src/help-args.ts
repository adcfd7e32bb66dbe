import type { CliOptions, Subcommand } from './args.ts';
import { UsageError } from './usage-error.ts';

/**
 * `help`, `help SUBCOMMAND`, `help TOOL`, `help call TOOL` (docs/contract.md §4.1):
 * the same help as `--help`, `SUBCOMMAND --help` and `call TOOL --help`.
 */
export function helpOptions(words: readonly string[], defaults: CliOptions, subcommands: readonly Subcommand[]): CliOptions {
  const [topic, tool, ...more] = words;
  const help = { ...defaults, help: true };
  if (topic === undefined) return { ...help, overview: true };
  if (more.length > 0 || (tool !== undefined && topic !== 'call')) throw new UsageError('help takes a subcommand, a tool, or call TOOL: openwork-tools help call read');
  if (subcommands.includes(topic as Subcommand)) return { ...help, subcommand: topic as Subcommand, positionals: tool === undefined ? [] : [tool] };
  // Any other word names a tool; one that does not exist is a usage error listing the tools.
  return { ...help, subcommand: 'call', positionals: [topic] };
}
