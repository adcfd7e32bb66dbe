import { isTrustedProject, SETTINGS_FILE, type AllowRule, type AskAnswer, type DenyRule, type UntrustedRules } from '@openwork/permission-policy';
import { readProjectSettings } from './project-settings.ts';
import { readUserSettings, recordTrustedProject } from './user-settings-file.ts';

/** Puts a yes-or-no question to the person: on the terminal, or by MCP elicitation. */
export type PutQuestion = (question: string, signal: AbortSignal) => Promise<AskAnswer>;

/** The rules a session decides with. */
export interface SessionRules {
  /** The command line's, the user's, and the project's once its folder is trusted. */
  readonly allow: readonly AllowRule[];
  /** The user's and the project's: always applied. */
  readonly deny: readonly DenyRule[];
  /** The project's allow rules while its folder is not trusted. */
  readonly untrusted?: UntrustedRules;
  /** Why the project's allow rules are ignored, when nobody can be asked to trust the folder. */
  readonly notice?: string;
}

export interface SessionRulesOptions {
  /** `--allow` rules. */
  readonly commandLine: readonly AllowRule[];
  /** The session's canonical working directory: the folder a trust is recorded for. */
  readonly workingDirectory: string;
  readonly userFile: string;
  /** `--trust-project SHA256`: trusts the project's file for this run when it has this digest. */
  readonly trustProject: string | undefined;
  /** Who is asked to trust the folder; undefined when nobody can be. */
  readonly question: PutQuestion | undefined;
  /** What, besides --trust-project, would let a person trust the folder. */
  readonly howToTrust: string;
  readonly log: (text: string) => void;
}

/**
 * Reads the user's and the project's settings for a session. The project's
 * deny rules always apply; its allow rules only when the person trusted this
 * folder with this very file (recorded in the user's settings, or named by
 * `--trust-project`), else they wait for the person's answer at the first
 * call they would approve. See docs/security.md, "Settings and folder trust".
 */
export async function sessionRules(options: SessionRulesOptions): Promise<SessionRules> {
  const user = await readUserSettings(options.userFile);
  const project = await readProjectSettings(options.workingDirectory);
  const deny = [...user.deny, ...(project?.settings.deny ?? [])];
  const allow = [...options.commandLine, ...user.allow];
  if (project === undefined || project.settings.allow.length === 0) return { allow, deny };
  if (isTrustedProject(user, options.workingDirectory, project.sha256) || options.trustProject === project.sha256) {
    return { allow: [...allow, ...project.settings.allow], deny };
  }
  const listed = project.settings.allow.map((rule) => rule.text).join(', ');
  const mismatch = options.trustProject === undefined ? '' : ` (--trust-project names another digest: the file changed, or is not the one read)`;
  // The digest is not printed here: automation should trust the file a person read, not whatever a pull request brought.
  const ignoredNote =
    `the allow rules of ${project.file} (${listed}) were ignored: this folder is not trusted with this file${mismatch}; ` +
    `${options.howToTrust}, or pass --trust-project with the file's SHA-256 (sha256sum ${SETTINGS_FILE}) once you have read it`;
  const question = `This project's ${SETTINGS_FILE} (${project.file}) allows without asking: ${listed}. Trust this folder with this file (sha256 ${project.sha256})?`;
  const ask = options.question;
  const trust = async (signal: AbortSignal): Promise<AskAnswer> => {
    if (ask === undefined) return 'unanswered';
    const answer = await ask(question, signal);
    if (answer === 'approved') {
      await recordTrustedProject(options.userFile, options.workingDirectory, project.sha256).catch((error: unknown) => {
        options.log(`openwork-tools: the trust was not recorded in ${options.userFile} (${error instanceof Error ? error.message : String(error)}); it holds for this session only\n`);
      });
    }
    return answer;
  };
  return { allow, deny, untrusted: { allow: project.settings.allow, trust, ignoredNote }, ...(ask === undefined ? { notice: ignoredNote } : {}) };
}
