/** Why a node the classifier does not accept makes the command ask, by tree-sitter-bash node type. */
const REASONS: Readonly<Record<string, string>> = {
  command_substitution: 'command substitution ($(…) or backticks) runs a hidden command',
  process_substitution: 'process substitution (<(…) or >(…)) runs a hidden command',
  simple_expansion: 'a $ expansion is only known when the shell runs',
  expansion: 'a ${…} expansion is only known when the shell runs',
  arithmetic_expansion: 'an arithmetic expansion $((…)) is only known when the shell runs',
  ansi_c_string: "$'…' quoting is not read by the classifier",
  translated_string: '$"…" quoting is not read by the classifier',
  subshell: 'a subshell (…) is not composed of allowed commands only',
  compound_statement: 'a { …; } group is not composed of allowed commands only',
  variable_assignment: 'an assignment before or instead of a command changes its environment',
  variable_assignments: 'an assignment before or instead of a command changes its environment',
  function_definition: 'a function definition can shadow any command',
  for_statement: 'a loop is not classified',
  c_style_for_statement: 'a loop is not classified',
  while_statement: 'a loop is not classified',
  if_statement: 'an if statement is not classified',
  case_statement: 'a case statement is not classified',
  test_command: 'a [ or [[ test is not classified',
  negated_command: 'a negated command (!) is not classified',
  heredoc_redirect: 'a here-document is not classified',
  herestring_redirect: 'a here-string is not classified',
  declaration_command: 'a declaration (export, declare, local, readonly) changes the shell',
  unset_command: 'unset changes the shell',
  brace_expression: 'brace expansion is only known when the shell runs',
  '&': 'a background command (&) outlives the call',
  '|&': 'a |& pipeline is not classified',
  '$': 'a bare $ is not classified',
};

export function reasonForNode(type: string): string {
  return REASONS[type] ?? `a ${JSON.stringify(type)} in the syntax is not on the classifier's list`;
}
