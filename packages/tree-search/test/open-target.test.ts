import { describe, expect, it } from 'vitest';
import { openChainAsync, openTarget, SearchOpenError, type AsyncChainOpener, type ChainTarget, type SearchDirectory } from '../src/index.ts';

// The last mile (docs/decisions/0009, 0031) over a tree of plain objects: which
// directories are opened, compared and closed, and what is refused. The
// swap races against real and memory trees are in fs-backend.

interface Node {
  readonly ino: number;
  readonly children: Record<string, Node>;
}

const tree: Node = { ino: 1, children: { a: { ino: 2, children: { b: { ino: 3, children: {} } } } } };
const target: ChainTarget = { root: '/r', rootDev: 7, rootIno: 1, chain: [['/r/a', 7, 2], ['/r/a/b', 7, 3]] };

/** A host over `tree` that records what it did; `open` is the tree the root opens to. */
function host(root: Node = tree) {
  const log: string[] = [];
  const directory = (node: Node): SearchDirectory => ({
    dev: 7,
    ino: node.ino,
    list: () => [],
    openDirectory: (name) => {
      const child = node.children[name];
      if (child === undefined) throw Object.assign(new Error(`ENOENT ${name}`), { code: 'ENOENT' });
      log.push(`open ${child.ino}`);
      return directory(child);
    },
    readFile: () => ({ ok: false, reason: 'gone' }),
    linkTarget: () => undefined,
    close: () => log.push(`close ${node.ino}`),
  });
  return {
    log,
    openRoot: () => {
      log.push(`root ${root.ino}`);
      return directory(root);
    },
  };
}

const changed = (kind: 'root' | 'directory') => (error: unknown) => error instanceof SearchOpenError && error.changed === kind;

/** What `walk` threw. */
function thrown(walk: () => unknown): unknown {
  try {
    walk();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('openTarget: one walk from the root', () => {
  it('opens each level from the one above, closes each once the next is open, and returns the last', () => {
    const { log, openRoot } = host();
    const opened = openTarget({ ...target, path: '/r/a/b' }, '/r/a/b', openRoot);
    expect(opened.ino).toBe(3);
    expect(log).toEqual(['root 1', 'open 2', 'close 1', 'open 3', 'close 2']);
  });

  it('a root of another identity is refused, and closed', () => {
    const { log, openRoot } = host({ ino: 9, children: tree.children });
    expect(thrown(() => openTarget({ ...target, path: '/r' }, '/r', openRoot))).toSatisfy(changed('root'));
    expect(log).toEqual(['root 9', 'close 9']);
  });

  it('a directory on the way, or at the end, of another identity than the guard saw is refused, and nothing stays open', () => {
    const stranger: Node = { ino: 1, children: { a: { ino: 20, children: { b: { ino: 3, children: {} } } } } };
    const onTheWay = host(stranger);
    expect(thrown(() => openTarget({ ...target, path: '/r/a/b' }, '/r/a/b', onTheWay.openRoot))).toSatisfy(changed('directory'));
    expect(onTheWay.log).toEqual(['root 1', 'open 20', 'close 1', 'close 20']);
    const atTheEnd = host({ ino: 1, children: { a: { ino: 2, children: { b: { ino: 30, children: {} } } } } });
    expect(thrown(() => openTarget({ ...target, path: '/r/a/b' }, '/r/a/b', atTheEnd.openRoot))).toSatisfy(changed('directory'));
    expect(atTheEnd.log.at(-1)).toBe('close 30');
  });

  it('a level the chain does not know is walked without a comparison; a path outside the root opens nothing', () => {
    const unknown = host({ ino: 1, children: { a: { ino: 2, children: { c: { ino: 40, children: {} } } } } });
    expect(openTarget({ ...target, path: '/r/a/c' }, '/r/a/c', unknown.openRoot).ino).toBe(40);
    const outside = host();
    expect(thrown(() => openTarget({ ...target, path: '/elsewhere' }, '/elsewhere', outside.openRoot))).toSatisfy(changed('root'));
    expect(thrown(() => openTarget({ ...target, path: '/rx' }, '/rx', outside.openRoot))).toSatisfy(changed('root'));
    expect(outside.log).toEqual([]);
  });

  it('openChainAsync makes the same checks through promises', async () => {
    const { log, openRoot } = host({ ino: 1, children: { a: { ino: 20, children: {} } } });
    const opener: AsyncChainOpener<SearchDirectory> = {
      openRoot: () => Promise.resolve(openRoot()),
      openDirectory: (from, name) => Promise.resolve(from.openDirectory(name)),
      identity: (directory) => Promise.resolve(directory),
      close: (directory) => Promise.resolve(directory.close()),
    };
    await expect(openChainAsync(target, '/r/a', opener)).rejects.toSatisfy(changed('directory'));
    expect(log).toEqual(['root 1', 'open 20', 'close 1', 'close 20']);
    expect((await openChainAsync(target, '/r', opener)).ino).toBe(1);
    await expect(openChainAsync({ ...target, rootIno: 5 }, '/r', opener)).rejects.toSatisfy(changed('root'));
  });
});
