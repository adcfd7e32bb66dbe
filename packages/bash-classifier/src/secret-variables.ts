/**
 * Parts of a variable's name that mark it as a credential (compared without
 * regard to case), as Codex's shell environment policy drops them by
 * default: `AWS_SECRET_ACCESS_KEY`, `GITHUB_TOKEN`, `PGPASSWORD`. A name
 * that merely contains one (`KEYBOARD_LAYOUT`) is dropped too; a person
 * passes it through by name.
 */
const SECRET_PARTS: readonly string[] = ['KEY', 'SECRET', 'TOKEN', 'PASSWORD', 'PASSWD', 'CREDENTIAL'];

/** The tools' own variables (the HTTP server's bearer token among them): no command is given any, whatever is passed through. */
export const OWN_PREFIX = 'OPENWORK_';

/** Does the name look like a credential, which a command gets only when a person passed it through? */
export function isSecretVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_PARTS.some((part) => upper.includes(part));
}

/** Is the name one of the tools' own, which never reaches a command? */
export function isOwnVariable(name: string): boolean {
  return name.toUpperCase().startsWith(OWN_PREFIX);
}
