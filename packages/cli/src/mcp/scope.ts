import type { BuiltinSession } from '@openwork/builtin-tools';
import { authorizer, sessionPolicy, type AskPerson } from '@openwork/permission-policy';
import type { CliOptions } from '../args.ts';
import { withArtifactJournal, type ArtifactJournal } from '../journal.ts';
import { sessionRules, type PutQuestion } from '../folder-trust.ts';
import { openSession, type CommandHost, type SessionRoots } from '../session.ts';
import { finalizeFor } from '../toolset.ts';
import { approvalHint } from '../approval-hint.ts';
import { userSettingsFile } from '../user-settings-file.ts';
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
 * user's and project's rules (read once, from the working directory); an
 * ask is approved by --yes, or else put to the client. The project's allow
 * rules wait until a person trusts the folder: `question` asks at the first
 * call they would approve; without one they are ignored.
 */
export function scopeOpener(
  host: CommandHost,
  options: CliOptions,
  journal: ArtifactJournal | undefined,
  people: { readonly ask: AskPerson; readonly question: PutQuestion | undefined },
  log: (text: string) => void,
): (roots: SessionRoots) => Promise<CallScope<BuiltinSession>> {
  return async (roots) => {
    const session = withArtifactJournal(await openSession(host, options, roots), journal);
    const rules = await sessionRules({
      commandLine: options.allow,
      workingDirectory: session.workingDirectory,
      userFile: userSettingsFile(),
      trustProject: options.trustProject,
      question: people.question,
      howToTrust: 'use a client that supports elicitation, without --yes, to be asked',
      log,
    });
    if (rules.allow.length > 0) log(`openwork-tools mcp: commands allowed without asking in ${session.workingDirectory}: ${rules.allow.map((rule) => rule.text).join(', ')}\n`);
    if (rules.untrusted !== undefined) {
      log(`openwork-tools mcp: ${rules.notice ?? `the project's allow rules (${rules.untrusted.allow.map((rule) => rule.text).join(', ')}) wait until the folder is trusted: the client is asked at the first call they would approve`}\n`);
    }
    return {
      toolset: finalizeFor(session, options.mode),
      authorize: authorizer({
        mode: options.mode,
        ...sessionPolicy(session, { gitProcesses: host.gitProcesses }),
        allow: rules.allow,
        deny: rules.deny,
        ...(rules.untrusted === undefined ? {} : { untrusted: rules.untrusted }),
        ask: people.ask,
        unansweredNote: (ways) => approvalHint(ways, 'mcp-client', userSettingsFile()),
      }),
    };
  };
}
