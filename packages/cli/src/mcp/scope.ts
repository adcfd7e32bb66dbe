import type { BuiltinSession } from '@openwork/builtin-tools';
import { authorizer, sessionPolicy, type AskPerson } from '@openwork/permission-policy';
import type { CliOptions } from '../args.ts';
import { withArtifactJournal, type ArtifactJournal } from '../journal.ts';
import { allowRules } from '../project-settings.ts';
import { openSession, type CommandHost, type SessionRoots } from '../session.ts';
import { finalizeFor } from '../toolset.ts';
import { MCP_CANNOT_ASK } from './elicitation-ask.ts';
import type { CallScope } from './tool-server.ts';

/** How long a cancelled call may take to end before its processes are disposed anyway. */
export const SETTLE_MS = 5_000;

export async function settleWithin(settled: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([settled, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/**
 * Opens a session over `roots` with the command line's policy and the
 * project's allow rules (read once, from the working directory); an ask is
 * approved by --yes, or else put to the client.
 */
export function scopeOpener(
  host: CommandHost,
  options: CliOptions,
  journal: ArtifactJournal | undefined,
  ask: AskPerson,
  log: (text: string) => void,
): (roots: SessionRoots) => Promise<CallScope<BuiltinSession>> {
  return async (roots) => {
    const session = withArtifactJournal(await openSession(host, options, roots), journal);
    const allow = await allowRules(options.allow, session.workingDirectory);
    if (allow.length > 0) log(`openwork-tools mcp: commands allowed without asking in ${session.workingDirectory}: ${allow.map((rule) => rule.text).join(', ')}\n`);
    return {
      toolset: finalizeFor(session, options.mode),
      authorize: authorizer({
        mode: options.mode,
        ...sessionPolicy(session, { gitProcesses: host.gitProcesses }),
        allow,
        ask,
        unansweredNote: MCP_CANNOT_ASK,
      }),
    };
  };
}

