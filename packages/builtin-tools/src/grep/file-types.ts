/**
 * grep's `type`: ripgrep's type names for the common languages and formats,
 * each with ripgrep's globs for it (its default type table). A glob matches
 * a file's name, never its folders, as ripgrep's `--type` does. `rb` is not
 * a ripgrep name: it is kept as another name for `ruby`, which models reach
 * for.
 */
export const FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  asm: ['*.asm', '*.s', '*.S'],
  c: ['*.[chH]', '*.[chH].in', '*.cats'],
  clojure: ['*.clj', '*.cljc', '*.cljs', '*.cljx'],
  cmake: ['*.cmake', 'CMakeLists.txt'],
  cpp: ['*.[ChH]', '*.cc', '*.[ch]pp', '*.[ch]xx', '*.hh', '*.inl', '*.[ChH].in', '*.cc.in', '*.[ch]pp.in', '*.[ch]xx.in', '*.hh.in'],
  cs: ['*.cs'],
  csharp: ['*.cs'],
  css: ['*.css', '*.scss'],
  csv: ['*.csv'],
  dart: ['*.dart'],
  docker: ['*Dockerfile*'],
  elixir: ['*.ex', '*.eex', '*.exs'],
  erlang: ['*.erl', '*.hrl'],
  fsharp: ['*.fs', '*.fsx', '*.fsi'],
  go: ['*.go'],
  gradle: ['*.gradle'],
  groovy: ['*.groovy', '*.gradle'],
  h: ['*.h', '*.hh', '*.hpp'],
  haskell: ['*.hs', '*.lhs', '*.cpphs', '*.c2hs', '*.hsc'],
  html: ['*.htm', '*.html', '*.ejs'],
  java: ['*.java', '*.jsp', '*.jspx', '*.properties'],
  js: ['*.js', '*.jsx', '*.vue', '*.cjs', '*.mjs'],
  json: ['*.json', 'composer.lock'],
  jsonl: ['*.jsonl'],
  julia: ['*.jl'],
  jupyter: ['*.ipynb', '*.jpynb'],
  kotlin: ['*.kt', '*.kts'],
  less: ['*.less'],
  lua: ['*.lua'],
  make: ['[Gg][Nn][Uu]makefile', '[Mm]akefile', '[Gg][Nn][Uu]makefile.am', '[Mm]akefile.am', '[Gg][Nn][Uu]makefile.in', '[Mm]akefile.in', '*.mk', '*.mak'],
  markdown: ['*.markdown', '*.md', '*.mdown', '*.mdwn', '*.mkd', '*.mkdn'],
  md: ['*.markdown', '*.md', '*.mdown', '*.mdwn', '*.mkd', '*.mkdn'],
  nix: ['*.nix'],
  objc: ['*.h', '*.m'],
  objcpp: ['*.h', '*.mm'],
  ocaml: ['*.ml', '*.mli', '*.mll', '*.mly'],
  perl: ['*.perl', '*.pl', '*.PL', '*.plh', '*.plx', '*.pm', '*.t'],
  php: ['*.php', '*.php3', '*.php4', '*.php5', '*.php7', '*.php8', '*.pht', '*.phtml'],
  protobuf: ['*.proto'],
  ps: ['*.cdxml', '*.ps1', '*.ps1xml', '*.psd1', '*.psm1'],
  py: ['*.py'],
  r: ['*.R', '*.r', '*.Rmd', '*.Rnw'],
  rb: ['config.ru', 'Gemfile', '.irbrc', 'Rakefile', '*.gemspec', '*.rb', '*.rbw'],
  rst: ['*.rst'],
  ruby: ['config.ru', 'Gemfile', '.irbrc', 'Rakefile', '*.gemspec', '*.rb', '*.rbw'],
  rust: ['*.rs'],
  sass: ['*.sass', '*.scss'],
  scala: ['*.scala', '*.sbt'],
  sh: [
    '.login', '.logout', '.profile', 'profile',
    '.bash_login', 'bash_login', '.bash_logout', 'bash_logout', '.bash_profile', 'bash_profile', '.bashrc', 'bashrc', '*.bashrc',
    '.cshrc', '*.cshrc', '.kshrc', '*.kshrc', '.tcshrc',
    '.zshenv', 'zshenv', '.zlogin', 'zlogin', '.zlogout', 'zlogout', '.zprofile', 'zprofile', '.zshrc', 'zshrc',
    '*.bash', '*.csh', '*.ksh', '*.sh', '*.tcsh', '*.zsh',
  ],
  sql: ['*.sql', '*.psql'],
  swift: ['*.swift'],
  tex: ['*.tex', '*.ltx', '*.cls', '*.sty', '*.bib', '*.dtx', '*.ins'],
  tf: ['*.tf', '*.auto.tfvars', 'terraform.tfvars', '*.tf.json', '*.auto.tfvars.json', 'terraform.tfvars.json', '*.terraformrc', 'terraform.rc', '*.tfrc', '*.terraform.lock.hcl'],
  toml: ['*.toml', 'Cargo.lock'],
  ts: ['*.ts', '*.tsx', '*.cts', '*.mts'],
  txt: ['*.txt'],
  xml: ['*.xml', '*.xml.dist', '*.dtd', '*.xsl', '*.xslt', '*.xsd', '*.xjb', '*.rng', '*.sch', '*.xhtml'],
  yaml: ['*.yaml', '*.yml'],
  zig: ['*.zig'],
};

/** The known names, sorted. */
export const FILE_TYPE_NAMES: readonly string[] = [...Object.keys(FILE_TYPES), 'all'].sort();

/** ripgrep's `all`: a file of any type it knows. */
const ALL_TYPES: readonly string[] = [...new Set(Object.values(FILE_TYPES).flat())];

/** The globs of a type name; undefined for a name the table does not know. */
export function fileTypeGlobs(name: string): readonly string[] | undefined {
  if (name === 'all') return ALL_TYPES;
  return Object.hasOwn(FILE_TYPES, name) ? FILE_TYPES[name] : undefined;
}
