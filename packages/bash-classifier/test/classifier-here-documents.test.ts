// Here-documents and here-strings as the syntax reader takes them: standard
// input from text in the line, on descriptor 0 only, with what follows the
// first line joined as bash joins it (docs/security.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { createCommandClassifier } from '../src/index.ts';
import type { CommandClassifier } from '../src/index.ts';

let classifier: CommandClassifier;

beforeAll(async () => {
  classifier = await createCommandClassifier();
});

const classify = (line: string) => classifier.classify(line, { mode: 'default' });
const argvs = (line: string) => classify(line).commands.map((command) => command.argv);

describe('here-documents and here-strings', () => {
  it.each([
    ['cat <<EOF\nx\nEOF', '<<', 'EOF'],
    ["cat <<'EOF'\n$HOME\nEOF", '<<', 'EOF'],
    ['cat <<"EOF"\n$HOME\nEOF', '<<', 'EOF'],
    ['cat <<\\EOF\n$HOME\nEOF', '<<', 'EOF'],
    ['cat <<-EOF\n\tx\n\tEOF', '<<-', 'EOF'],
    ['cat <<< x', '<<<', 'x'],
    ["cat <<< 'a b'", '<<<', 'a b'],
  ])('%j reads standard input from the line', (line, operator, target) => {
    const result = classify(line);
    expect(result.verdict, result.reason).toBe('allow');
    expect(result.commands).toEqual([{ argv: ['cat'], redirections: [{ descriptor: 0, operator, target }] }]);
  });

  it('joins the commands after a here-document\'s first line as bash does', () => {
    expect(argvs('cat <<EOF | grep x\nx\nEOF')).toEqual([['cat'], ['grep', 'x']]);
    expect(argvs('cat <<EOF && ls\nx\nEOF')).toEqual([['cat'], ['ls']]);
    expect(argvs('cat <<EOF || ls -a\nx\nEOF')).toEqual([['cat'], ['ls', '-a']]);
    expect(classify('cat <<EOF | grep x\nx\nEOF').verdict).toBe('allow');
    expect(classify('cat <<EOF || rm -rf x\nx\nEOF').reason).toContain('rm');
  });

  it.each([
    ['cat <<EOF\n$HOME\nEOF', 'an unquoted here-document whose body has a $, backtick or backslash is expanded when the shell runs'],
    ['cat <<EOF > out\nx\nEOF', 'the redirect "> out" may write a file'],
    ['cat <<< $x', 'a $ expansion is only known when the shell runs'],
    ['cat <<< "$x"', 'a $ expansion is only known when the shell runs'],
  ])('%j asks: %s', (line, why) => {
    const result = classify(line);
    expect(result.verdict).toBe('ask');
    expect(result.reason).toContain(why);
  });
});
