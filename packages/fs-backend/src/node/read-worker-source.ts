/** Bytes of file content one worker reply carries at most (plus the file that crosses it). */
export const REPLY_BYTES = 8 * 1024 * 1024;

/**
 * The read worker, evaluated from source (it needs only Node's own modules):
 * the same steps as the shared last mile and bounded read, as synchronous
 * system calls, so a batch costs no thread-pool round trips.
 *
 * Each batch opens the directories its files are in once, from their root
 * down, as the main thread's walk does (docs/decisions/0009): the root
 * compared with the identity the session began with, then each level with
 * O_DIRECTORY | O_NOFOLLOW and compared with what the guard saw, then the file
 * by its name under /proc/self/fd/N of its directory (lstat, open with
 * O_NOFOLLOW | O_NONBLOCK, fstat, identity, size, at most maxBytes + 1 bytes).
 * Without /proc (workerData.handles false) the levels are lstat-checked paths,
 * the fallback of the main thread. Every descriptor is closed before the reply.
 */
export const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const C = fs.constants;
const HANDLES = workerData.handles === true;
const FLAGS = C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK | C.O_NOCTTY;
const DIRECTORY_FLAGS = C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW;
const kindOf = (stat) => stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : stat.isSymbolicLink() ? 'symlink' : 'other';
const inside = (root, path) => path === root || path.startsWith(root === '/' ? '/' : root + '/');
const rootChanged = { fail: { ok: false, rootChanged: true } };
const changed = { fail: { ok: false, changed: true } };
const failed = (error, stage) => ({ fail: { ok: false, errno: String(error.code), stage } });

// The directories of one batch: each entered once, shared by the files below it, closed by close().
function directories(request) {
  const roots = new Map(request.roots.map(([path, dev, ino]) => [path, { dev, ino }]));
  const seen = new Map(request.directories.map(([path, dev, ino]) => [path, { dev, ino }]));
  const opened = new Map();
  const descriptors = [];
  const level = (path, fd) => ({
    path,
    self: HANDLES ? '/proc/self/fd/' + fd : path,
    at: HANDLES ? (name) => '/proc/self/fd/' + fd + '/' + name : (name) => (path === '/' ? '' : path) + '/' + name,
  });
  const sameAs = (expected, stat) => expected === undefined || (stat.dev === expected.dev && stat.ino === expected.ino);
  const openRoot = (root) => {
    const expected = roots.get(root);
    if (expected === undefined) return rootChanged;
    if (!HANDLES) {
      let stat;
      try { stat = fs.lstatSync(root); } catch (error) { return ['ENOENT', 'ENOTDIR'].includes(error.code) ? rootChanged : failed(error, 'lstat'); }
      return stat.isDirectory() && sameAs(expected, stat) ? level(root) : rootChanged;
    }
    let fd;
    try { fd = fs.openSync(root, DIRECTORY_FLAGS); } catch (error) { return ['ENOENT', 'ENOTDIR', 'ELOOP'].includes(error.code) ? rootChanged : failed(error, 'open'); }
    descriptors.push(fd);
    return sameAs(expected, fs.fstatSync(fd)) ? level(root, fd) : rootChanged;
  };
  const enter = (parent, path, name) => {
    const at = parent.at(name);
    if (!HANDLES) {
      let stat;
      try { stat = fs.lstatSync(at); } catch (error) { return failed(error, 'lstat'); }
      if (stat.isSymbolicLink() || !sameAs(seen.get(path), stat)) return changed;
      if (!stat.isDirectory()) return { fail: { ok: false, errno: 'ENOTDIR', stage: 'open' } };
      return level(at);
    }
    let fd;
    try { fd = fs.openSync(at, DIRECTORY_FLAGS); } catch (error) {
      // With O_DIRECTORY, Linux reports a symlink as ENOTDIR. A symlink there now, or a directory again, means it was swapped.
      let swapped = error.code === 'ELOOP';
      if (error.code === 'ENOTDIR') { try { const now = fs.lstatSync(at); swapped = now.isSymbolicLink() || now.isDirectory(); } catch {} }
      return swapped ? changed : failed(error, 'open');
    }
    descriptors.push(fd);
    return sameAs(seen.get(path), fs.fstatSync(fd)) ? level(path, fd) : changed;
  };
  const get = (root, path) => {
    const key = root + '\\u0000' + path;
    let found = opened.get(key);
    if (found !== undefined) return found;
    if (!inside(root, path)) found = rootChanged;
    else if (path === root) found = openRoot(root);
    else {
      const cut = path.lastIndexOf('/');
      const parent = get(root, cut === 0 ? '/' : path.slice(0, cut));
      found = parent.fail ? parent : enter(parent, path, path.slice(cut + 1));
    }
    opened.set(key, found);
    return found;
  };
  const close = () => { for (const fd of descriptors) { try { fs.closeSync(fd); } catch {} } };
  return { get, close };
}
function readOne(file, found, maxBytes, filter) {
  if (file.directory === null) return { ok: false, kind: 'directory' };
  const directory = found.get(file.root, file.directory);
  if (directory.fail) return directory.fail;
  const path = directory.at(file.name);
  let stat;
  try { stat = fs.lstatSync(path); } catch (error) { return { ok: false, errno: String(error.code), stage: 'lstat' }; }
  if (!stat.isFile()) return { ok: false, kind: kindOf(stat) };
  let fd;
  try { fd = fs.openSync(path, FLAGS); } catch (error) { return { ok: false, errno: String(error.code), stage: 'open' }; }
  try {
    const opened = fs.fstatSync(fd);
    if (!opened.isFile()) return { ok: false, kind: kindOf(opened) };
    if (file.ino !== 0 && (opened.dev !== file.dev || opened.ino !== file.ino)) return { ok: false, changed: true };
    if (opened.size > maxBytes) return { ok: false, size: opened.size };
    const limit = maxBytes + 1;
    let buffer = new Uint8Array(Math.min(opened.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (buffer.length >= limit) break;
        const grown = new Uint8Array(Math.min(limit, buffer.length * 2));
        grown.set(buffer);
        buffer = grown;
      }
      const count = fs.readSync(fd, buffer, length, buffer.length - length, length);
      if (count === 0) break;
      length += count;
    }
    if (length > maxBytes) return { ok: false, grew: true };
    const view = Buffer.from(buffer.buffer, 0, length);
    if (filter.sniff > 0 && view.subarray(0, filter.sniff).includes(0)) return { ok: true, excluded: 'binary' };
    if (filter.containing !== undefined && view.indexOf(filter.containing) === -1) return { ok: true, excluded: 'absent' };
    if (filter.folded !== undefined && !containsFolded(view, filter.folded, filter.foldedLength)) return { ok: true, excluded: 'absent' };
    return { ok: true, buffer: buffer.buffer, length };
  } catch (error) {
    return { ok: false, errno: String(error.code), stage: 'read' };
  } finally {
    try { fs.closeSync(fd); } catch {}
  }
}
function listOne(target, found, sizes) {
  const directory = found.get(target.root, target.path);
  if (directory.fail) return directory.fail;
  const same = () => {
    // Checked paths only: readdir follows a symlink, so one swapped in meanwhile must not be listed through.
    if (HANDLES) return undefined;
    let stat;
    try { stat = fs.lstatSync(directory.path); } catch (error) { return { ok: false, errno: String(error.code), stage: 'lstat' }; }
    if (stat.isSymbolicLink() || (target.ino !== 0 && (stat.dev !== target.dev || stat.ino !== target.ino))) return { ok: false, changed: true };
    if (!stat.isDirectory()) return { ok: false, kind: kindOf(stat) };
    return undefined;
  };
  let listed;
  try { listed = fs.readdirSync(directory.self, { withFileTypes: true }); } catch (error) { return { ok: false, errno: String(error.code), stage: 'read' }; }
  const after = same();
  if (after) return after;
  const entries = [];
  for (const entry of listed) {
    const kind = kindOf(entry);
    if (kind !== 'file' || !sizes) { entries.push({ name: entry.name, kind }); continue; }
    let stat;
    try { stat = fs.lstatSync(directory.at(entry.name)); } catch (error) { if (error.code === 'ENOENT') continue; return { ok: false, errno: String(error.code), stage: 'read' }; }
    entries.push(stat.isFile() ? { name: entry.name, kind: 'file', size: stat.size } : { name: entry.name, kind: kindOf(stat) });
  }
  return { ok: true, entries };
}
// In windows of 256 KiB that overlap by the literal's length: small strings, whatever the file's size.
function containsFolded(view, pattern, length) {
  const WINDOW = 262144;
  for (let start = 0; start < view.length; start += WINDOW) {
    const end = Math.min(view.length, start + WINDOW + length - 1);
    if (pattern.test(view.toString('latin1', start, end))) return true;
    if (end === view.length) break;
  }
  return false;
}
const escape = (text) => text.replace(/[\\\\^$.*+?()[\\]{}|/]/g, '\\\\$&');
parentPort.on('message', (request) => {
  const found = directories(request);
  try {
    if (request.op === 'list') {
      parentPort.postMessage({ id: request.id, results: request.files.map((target) => listOne(target, found, request.sizes)) });
      return;
    }
    const filter = {
      sniff: request.sniff,
      containing: request.containing === undefined || request.containing.length === 0 ? undefined : Buffer.from(request.containing),
      folded: request.folded === undefined || request.folded === '' ? undefined : new RegExp(escape(request.folded), 'i'),
      foldedLength: request.folded === undefined ? 0 : request.folded.length,
    };
    // Bounded memory: once a reply holds this many bytes, the rest of the batch is deferred to the next request.
    let held = 0;
    const results = request.files.map((file) => {
      if (held >= ${REPLY_BYTES}) return { ok: true, deferred: true };
      const result = readOne(file, found, request.maxBytes, filter);
      if (result.buffer !== undefined) held += result.length;
      return result;
    });
    parentPort.postMessage({ id: request.id, results }, results.filter((result) => result.buffer !== undefined).map((result) => result.buffer));
  } finally {
    found.close();
  }
});
`;
