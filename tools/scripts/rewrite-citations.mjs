#!/usr/bin/env node
// Rewrites citations of documents the repository does not hold into
// citations of docs/contract.md and docs/design.md, and drops references to
// tracker numbers. Idempotent: a second run changes nothing. Run from
// anywhere: `node tools/scripts/rewrite-citations.mjs [--check]`. With
// --check it changes nothing and exits 1 when a file would change. It exits
// 1 too when a citation is left that it has no rule for, naming it, so that
// a new form is noticed (packages/cli/test/citations.test.ts fails on it).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const repository = fileURLToPath(new URL('../../', import.meta.url));

const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', 'dist', '.nx', 'coverage', '.corpus']);
const EXTENSIONS = ['.ts', '.mts', '.cts', '.mjs', '.cjs', '.js', '.md', '.json', '.yml', '.yaml'];
/** This script and the test that checks its outcome spell the old forms on purpose. */
const OWN_FILES = new Set(['tools/scripts/rewrite-citations.mjs', 'packages/cli/test/citations.test.ts']);
const SKIPPED_FILES = new Set(['pnpm-lock.yaml']);

// The old forms, spelt so that a search for them does not find this file.
const OLD_CONTRACT = ['CONTRACT', 'md'].join('\\.');
const OLD_DESIGN = ['seed', '§'].join(' ');

/**
 * The English of the design's phrases quoted in Chinese (test names, comments), as docs/design.md words them.
 * Longer phrases first, so that one containing another is replaced whole.
 */
const PHRASES = [
  ['模型上下文中不出现 Artifact，Token 统计不包含它', 'no artifact appears in the model context or its token count'],
  ['bash 终止整个进程组，并返回终止前已收集的输出', 'bash ends the whole process group and returns the output collected before the end'],
  ['kill 确认失败时返回 outcome_unknown 且不遗留孤儿进程', 'when a kill cannot be confirmed it returns outcome_unknown and leaves no orphan process'],
  ['Input Schema 与反序列化类型来自同一个类型', 'the input schema and the deserialized type come from the same type'],
  ['取消 Turn 时所有活动 Tool Call 同时取消', 'cancelling a turn cancels every active tool call at once'],
  ['timeout 与用户取消走同一条终止路径', 'timeout and user cancel take the same termination path'],
  ['进度发送失败不改变执行结果', 'a failure to send progress does not change the result'],
  ['进度发送失败不改变工具结果', 'a failure to send progress does not change the tool result'],
  ['bash 非零退出是正常工具结果，不是基础设施错误', 'a non-zero bash exit is a normal tool result, not an infrastructure error'],
  ['yes 这类无限输出的命令不会耗尽内存', 'a command of unbounded output such as yes does not exhaust memory'],
  ['grep / glob 达到上限后停止遍历而不是先收集全树', 'grep / glob stop walking at the limit instead of collecting the whole tree first'],
  ['edit 在 old_text 缺失、重复或与新文本相同时失败', 'edit fails when oldText is missing, repeated or equal to the new text'],
  ['并发修改导致摘要变化时 edit 返回 stale 而不覆盖', 'edit returns stale and does not overwrite when a concurrent change altered the digest'],
  ['会话重载后仍能显示当时的准确 diff', 'after a session reload the exact diff of the time can still be shown'],
  ['Undo 在哈希不匹配时返回冲突', 'undo returns a conflict when the hash does not match'],
  ['同批次多次变更按逆序撤销', 'several changes in one batch are undone in reverse order'],
  ['read 的分页在稳定排序上进行', 'read pages over a stable sort'],
  ['list 的分页在稳定排序上进行', 'list pages over a stable sort'],
  ['Definitions 与 Dispatch 来自同一个 FinalizedToolset', 'definitions and dispatch come from the same FinalizedToolset'],
  ['finalize 之后无法增删替换工具', 'after finalize, tools cannot be added, removed or replaced'],
  ['权限过滤后不可见的工具既不广告也不可执行', 'a tool hidden by the permission filter is neither advertised nor executable'],
  ['输入未变化时工具定义顺序确定', 'with unchanged input, the order of tool definitions is deterministic'],
  ['openwork-tools 不出现对 openwork-core 的依赖', 'openwork-tools never depends on openwork-core'],
  ['指向工作区外的 symlink 被拒绝', 'a symlink pointing outside the workspace is refused'],
  ['新建文件时，父目录越界被拒绝', 'when creating a file, a parent directory out of bounds is refused'],
  ['工具无法绕过 CheckedPath 直接拿到 PathBuf', 'a tool cannot get around CheckedPath to a raw path'],
  ['Allow 不能绕过路径边界', 'Allow cannot get around the path boundary'],
  ['Shell 重定向边界', 'the shell redirection boundary'],
  ['object-safe 分发', 'object-safe dispatch'],
  ['路径安全', 'path safety'],
  ['契约与分层', 'contract and layering'],
  ['工具语义', 'tool semantics'],
];

/**
 * The old contract's sections are the new one's 1–4; the MCP server, part of
 * the old §4, is §5 of docs/contract.md, so a §4 cited from MCP code goes there.
 */
function contractSection(section, file) {
  if (section === '4' && /(^|\/)mcp[/.-]|\/mcp\//.test(file)) return '5';
  return section;
}

/** `issue 12`, `issue 12 item 7`, `Issue 12 items 1–3`, `issue 19 §5`, across a comment's line break. */
const ISSUE = String.raw`[Ii]ssue\s+\d+(?:[\s*]+(?:items?|§)\s*[\d.]+(?:\s*(?:–|-|,|and)\s*[\d.]+)*)?`;

/** Sentences that name a tracker entry in prose, each with words that say what it was. */
const PROSE = [
  [/\bBefore issue 12,/g, 'Before the search moved into the workers (docs/decisions/0012),'],
  [/\bsince issue 12\b/g, 'since the search moved into the workers'],
  [/\bIssue 12 asked for\b/g, 'This record answers the need for'],
  [/\bThe original the issue lost\b/g, 'The original a failed journal append could lose'],
];

const upper = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** The text with every rule applied. */
export function rewrite(text, file) {
  let out = text;
  for (const [chinese, english] of PHRASES) out = out.replaceAll(chinese, english);
  // The old contract, its section possibly on the next line of a comment.
  out = out.replace(new RegExp(`${OLD_CONTRACT}((?:[ \\t]*\\n[ \\t]*(?:\\*|//|#)?)?[ \\t]*)§(\\d+)`, 'g'), (_match, gap, section) => `docs/contract.md${gap}§${contractSection(section, file)}`);
  out = out.replace(new RegExp(`\\b${OLD_DESIGN}(?=\\d)`, 'g'), 'docs/design.md §');
  // Notes of the wider product's permission design: docs/design.md §8 states their point.
  out = out.replace(/,\s*permissions §[\d.]+(?:\s*(?:,|and)\s*§[\d.]+)*/g, '');
  out = out.replace(/(?:\.\.\/)+shared\/seeds\/[\w.-]+/g, 'docs/design.md');
  for (const [pattern, replacement] of PROSE) out = out.replace(pattern, replacement);
  // `(issue: a title)`: the sentence already says what it is about.
  out = out.replace(/[ \t]*\(issue: [^)]*\)/g, '');
  // `(issue 12, docs/decisions/0012)` keeps the record; `(issue 19: what happened)` keeps what happened.
  out = out.replace(new RegExp(`\\(\\s*${ISSUE}\\s*,\\s*`, 'g'), '(');
  out = out.replace(new RegExp(`\\(\\s*${ISSUE}\\s*:\\s*`, 'g'), '(');
  // `(issue 12)` goes; a line break it held stays, after the punctuation that followed it.
  out = out.replace(new RegExp(`(?:[ \\t]*\\n[ \\t]*(?:\\*|//)?)?[ \\t]*\\(\\s*${ISSUE}\\s*\\)([:;,.]?)`, 'g'), (match, punctuation) => {
    const lineBreak = /\n[ \t]*(?:\*|\/\/)?/.exec(match)?.[0] ?? '';
    return `${punctuation}${lineBreak}`;
  });
  out = out.replace(new RegExp(`,\\s*${ISSUE}\\s*\\)`, 'g'), ')');
  out = out.replace(new RegExp(` of ${ISSUE}`, 'g'), '');
  // At the start of a comment or a sentence: `// Issue 12 item 6: a search` → `// A search`.
  out = out.replace(new RegExp(`${ISSUE},\\s*`, 'g'), '');
  out = out.replace(new RegExp(`${ISSUE}:\\s*(\\S)`, 'g'), (_match, first) => upper(first));
  return out;
}

/** What is left that still points outside the repository, or at a tracker number. */
export function leftovers(text) {
  const found = [];
  const patterns = [new RegExp(OLD_CONTRACT), new RegExp(`${OLD_DESIGN}\\d`), new RegExp(ISSUE), /\(issue:/, /(?:\.\.\/)+shared\/seeds/, /permissions §/];
  text.split('\n').forEach((line, index) => {
    if (patterns.some((pattern) => pattern.test(line))) found.push({ line: index + 1, text: line.trim() });
  });
  return found;
}

async function* files(directory) {
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) yield* files(path);
    } else if (entry.isFile() && EXTENSIONS.some((extension) => entry.name.endsWith(extension))) {
      yield path;
    }
  }
}

async function main() {
  const check = process.argv.includes('--check');
  let changed = 0;
  let unresolved = 0;
  for await (const path of files(repository)) {
    const file = relative(repository, path).split(sep).join('/');
    if (OWN_FILES.has(file) || SKIPPED_FILES.has(file)) continue;
    const text = await readFile(path, 'utf8');
    const next = rewrite(text, file);
    if (next !== text) {
      changed += 1;
      console.log(`${check ? 'would rewrite' : 'rewrote'} ${file}`);
      if (!check) await writeFile(path, next);
    }
    for (const left of leftovers(next)) {
      unresolved += 1;
      console.error(`${file}:${left.line}: no rule for: ${left.text}`);
    }
  }
  console.log(`${changed} file(s) ${check ? 'to rewrite' : 'rewritten'}; ${unresolved} citation(s) without a rule`);
  if (unresolved > 0 || (check && changed > 0)) process.exitCode = 1;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await main();
