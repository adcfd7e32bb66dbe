import { readdir, readFile } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

// Every citation of the contract or the design names a section that exists,
// every link into a document names a heading it has, and nothing points at
// a document the repository does not hold or at a tracker's numbers.

const repository = fileURLToPath(new URL('../../../', import.meta.url));
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', 'dist', '.nx', 'coverage', '.corpus']);
const EXTENSIONS = ['.ts', '.mts', '.cts', '.mjs', '.cjs', '.js', '.md', '.json', '.yml', '.yaml'];
/** The codemod that rewrites the old forms spells them on purpose. */
const CODEMOD = 'tools/scripts/rewrite-citations.mjs';
const CITED = ['docs/contract.md', 'docs/design.md'] as const;

/** A document's headings: their GitHub anchors and the section numbers they start with. */
interface Outline {
  readonly anchors: ReadonlySet<string>;
  readonly sections: ReadonlySet<string>;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
function slug(heading: string, seen: Map<string, number>): string {
  const base = heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
  const count = seen.get(base) ?? 0;
  seen.set(base, count + 1);
  return count === 0 ? base : `${base}-${count}`;
}

function outline(markdown: string): Outline {
  const anchors = new Set<string>();
  const sections = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const text = heading[1] ?? '';
    anchors.add(slug(text, seen));
    const number = /^(\d+(?:\.\d+)*)\.?\s/.exec(text)?.[1];
    if (number !== undefined) sections.add(number);
  }
  return { anchors, sections };
}

/** `§4`, `§4.2`, `§8/§9`, `§1–§6`, `§2, §3`, `§2.3 and §4.8`: the numbers a run of section marks names. */
function sectionRun(text: string): string[] {
  const numbers: string[] = [];
  const run = /^[ \t]*(?:\n[ \t]*(?:\*|\/\/|#)?[ \t]*)?§(\d+(?:\.\d+)*)/.exec(text);
  if (!run) return numbers;
  numbers.push(run[1] ?? '');
  let rest = text.slice(run[0].length);
  for (;;) {
    const next = /^\s*(?:,|and|–|-|\/)\s*§(\d+(?:\.\d+)*)/.exec(rest);
    if (!next) return numbers;
    numbers.push(next[1] ?? '');
    rest = rest.slice(next[0].length);
  }
}

interface Citation {
  readonly line: number;
  readonly text: string;
}

/** The citations of `file`'s text that name a section or an anchor its document does not have. */
function brokenCitations(file: string, text: string, outlines: ReadonlyMap<string, Outline>): Citation[] {
  const broken: Citation[] = [];
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  for (const document of CITED) {
    const known = outlines.get(document);
    for (const match of text.matchAll(new RegExp(document.replace('.', '\\.'), 'g'))) {
      const after = match.index + document.length;
      for (const number of sectionRun(text.slice(after))) {
        if (!known?.sections.has(number)) broken.push({ line: lineOf(match.index), text: `${document} §${number}` });
      }
    }
  }
  // Inside the contract and the design, a bare § names a section of the same document.
  if ((CITED as readonly string[]).includes(file)) {
    const own = outlines.get(file);
    for (const match of text.matchAll(/(?<![\w/.])(?<!\.md[ \t]*)§(\d+(?:\.\d+)*)/g)) {
      if (!own?.sections.has(match[1] ?? '')) broken.push({ line: lineOf(match.index), text: `§${match[1]}` });
    }
  }
  // Markdown links with an anchor into a document of the repository.
  for (const match of text.matchAll(/\]\(([^)\s#]*\.md)#([^)\s]+)\)/g)) {
    const [, target = '', anchor = ''] = match;
    if (/^[a-z]+:/i.test(target)) continue;
    const resolved = target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join(posix.dirname(file), target));
    const known = outlines.get(resolved);
    if (!known?.anchors.has(anchor)) broken.push({ line: lineOf(match.index), text: `${target}#${anchor}` });
  }
  return broken;
}

/** Lines that point outside the repository or at a tracker number. */
function outsideReferences(text: string): Citation[] {
  const patterns = [
    /CONTRACT\.md/,
    /seed\s§/,
    /\b[Ii]ssues?\s+#?\d/,
    /\(iss[u]e:/,
    // A sibling folder `shared` outside the repository (no package has a folder of that name).
    /(?:\.\.\/)+shared\b/,
  ];
  const found: Citation[] = [];
  text.split('\n').forEach((line, index) => {
    if (patterns.some((pattern) => pattern.test(line))) found.push({ line: index + 1, text: line.trim() });
  });
  return found;
}

async function* files(directory: string): AsyncGenerator<string> {
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) yield* files(path);
    } else if (entry.isFile() && EXTENSIONS.some((extension) => entry.name.endsWith(extension))) {
      yield path;
    }
  }
}

const texts = new Map<string, string>();
const outlines = new Map<string, Outline>();

beforeAll(async () => {
  for await (const path of files(repository)) {
    const file = relative(repository, path).split(sep).join('/');
    if (file === 'pnpm-lock.yaml') continue;
    const text = await readFile(path, 'utf8');
    texts.set(file, text);
    if (file.endsWith('.md')) outlines.set(file, outline(text));
  }
});

describe('citations', () => {
  it('the contract and the design have numbered sections', () => {
    expect([...(outlines.get('docs/contract.md')?.sections ?? [])]).toEqual(expect.arrayContaining(['1', '2', '3', '4', '5', '6', '7']));
    expect([...(outlines.get('docs/design.md')?.sections ?? [])]).toEqual(expect.arrayContaining(['1', '2', '3', '4', '5', '6', '7', '7.1', '7.2', '8', '9', '10', '11']));
    expect(outlines.get('docs/contract.md')?.anchors.has('4-the-command-line')).toBe(true);
  });

  it('every cited section and linked anchor exists', () => {
    const broken = [...texts].flatMap(([file, text]) => brokenCitations(file, text, outlines).map((citation) => `${file}:${citation.line}: ${citation.text}`));
    expect(broken).toEqual([]);
  });

  it('nothing cites a document outside the repository or a tracker number', () => {
    const outside = [...texts]
      .filter(([file]) => file !== CODEMOD)
      .flatMap(([file, text]) => outsideReferences(text).map((reference) => `${file}:${reference.line}: ${reference.text}`));
    expect(outside).toEqual([]);
  });

  /** A citation spelt apart, so that this file cites nothing itself. */
  const cite = (document: string, sections: string) => [document, sections].join(' ');

  it('a citation of a missing section, a missing anchor or an old document is found', () => {
    const contract = cite('docs/contract.md', '§4');
    const missing = cite('docs/design.md', '§12');
    const text = [`// ${contract}, ${missing}`, `see [the flags](${'docs/contract.md'}#${'9-nowhere'})`, `// ${'CONTRACT'}.md §2`, `// ${'issue'} 12 item 3`].join('\n');
    expect(brokenCitations('packages/x/src/a.ts', text, outlines).map((citation) => citation.text)).toEqual([missing, 'docs/contract.md#9-nowhere']);
    expect(outsideReferences(text).map((reference) => reference.line)).toEqual([3, 4]);
    expect(outsideReferences("import { x } from '../common/errno.ts';")).toEqual([]);
    expect(outsideReferences(`see ${'../'}shared/CONTRACT`).map((reference) => reference.line)).toEqual([1]);
  });

  it('a run of sections is checked section by section', () => {
    const run = cite('docs/design.md', '§8/§9, §99');
    expect(brokenCitations('a.ts', run, outlines).map((citation) => citation.text)).toEqual([cite('docs/design.md', '§99')]);
    const wrapped = ['(docs/contract.md', ' * §42 says)'].join('\n');
    expect(brokenCitations('a.ts', wrapped, outlines).map((citation) => citation.text)).toEqual([cite('docs/contract.md', '§42')]);
  });
});
