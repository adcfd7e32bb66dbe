import { errnoError } from '../common/errno.ts';

interface NodeBase {
  readonly ino: number;
  mode: number;
  mtimeMs: number;
}

export interface MemoryFile extends NodeBase {
  readonly type: 'file';
  data: Uint8Array;
}

export interface MemoryDirectory extends NodeBase {
  readonly type: 'directory';
  readonly entries: Map<string, MemoryNode>;
}

export interface MemorySymlink extends NodeBase {
  readonly type: 'symlink';
  readonly target: string;
}

/** A FIFO, socket or device: lstat kind `other`, never readable as a file. */
export interface MemorySpecial extends NodeBase {
  readonly type: 'other';
}

export type MemoryNode = MemoryFile | MemoryDirectory | MemorySymlink | MemorySpecial;

/** Where a path led: its directory entry (node undefined when the last component does not exist). */
export interface Located {
  readonly parent: MemoryDirectory | null;
  readonly name: string;
  readonly node: MemoryNode | undefined;
}

/** Every node of one tree shares this device number. */
export const memoryDevice = 1;

const maxSymlinks = 40;
const maxNameBytes = 255;
const encoder = new TextEncoder();

function components(path: string): string[] {
  return path.split('/').filter((part) => part !== '' && part !== '.');
}

/** A POSIX tree in memory: symlinks resolved the way the kernel resolves them, ELOOP after 40. */
export class MemoryTree {
  readonly root: MemoryDirectory;
  #nextIno = 2;

  constructor() {
    this.root = { type: 'directory', ino: 1, mode: 0o755, mtimeMs: Date.now(), entries: new Map() };
  }

  /** Walks `path`, following symlinks on the way and, when asked, the last one too. */
  walk(path: string, options: { followLast: boolean }): Located {
    if (!path.startsWith('/')) throw errnoError('EINVAL', 'walk', path);
    let pending = components(path);
    const stack: { directory: MemoryDirectory; name: string }[] = [{ directory: this.root, name: '' }];
    const here = (): Located => {
      const top = stack[stack.length - 1] as (typeof stack)[number];
      const above = stack[stack.length - 2];
      return { parent: above?.directory ?? null, name: top.name, node: top.directory };
    };
    let links = 0;
    while (pending.length > 0) {
      const name = pending.shift() as string;
      const last = pending.length === 0;
      if (name === '..') {
        if (stack.length > 1) stack.pop();
        if (last) return here();
        continue;
      }
      // A UTF-16 code unit is at most 3 bytes of UTF-8: a short name needs no encoding to be within the bound.
      if (name.length > maxNameBytes / 3 && encoder.encode(name).byteLength > maxNameBytes) throw errnoError('ENAMETOOLONG', 'walk', path);
      const directory = (stack[stack.length - 1] as (typeof stack)[number]).directory;
      const node = directory.entries.get(name);
      if (node === undefined) {
        if (last) return { parent: directory, name, node: undefined };
        throw errnoError('ENOENT', 'walk', path);
      }
      if (node.type === 'symlink' && (!last || options.followLast)) {
        links += 1;
        if (links > maxSymlinks) throw errnoError('ELOOP', 'walk', path);
        if (node.target.startsWith('/')) stack.length = 1;
        pending = [...components(node.target), ...pending];
        if (pending.length === 0) return here();
        continue;
      }
      if (last) return { parent: directory, name, node };
      if (node.type !== 'directory') throw errnoError('ENOTDIR', 'walk', path);
      stack.push({ directory: node, name });
    }
    return here();
  }

  newFile(mode: number, data: Uint8Array): MemoryFile {
    return { type: 'file', ino: this.#ino(), mode, mtimeMs: Date.now(), data };
  }

  newDirectory(mode: number): MemoryDirectory {
    return { type: 'directory', ino: this.#ino(), mode, mtimeMs: Date.now(), entries: new Map() };
  }

  newSymlink(target: string): MemorySymlink {
    return { type: 'symlink', ino: this.#ino(), mode: 0o777, mtimeMs: Date.now(), target };
  }

  newSpecial(mode: number): MemorySpecial {
    return { type: 'other', ino: this.#ino(), mode, mtimeMs: Date.now() };
  }

  #ino(): number {
    const ino = this.#nextIno;
    this.#nextIno += 1;
    return ino;
  }
}
