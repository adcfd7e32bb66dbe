import { mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileRootPath } from './client-roots.ts';
import { tooWideToServe } from './start-directory.ts';

describe('fileRootPath', () => {
  it('takes the local path of a file:// root, decoded', () => {
    expect(fileRootPath('file:///home/me/my%20project')).toEqual({ path: '/home/me/my project' });
    expect(fileRootPath('file://localhost/srv/app')).toEqual({ path: '/srv/app' });
  });

  it('refuses any other scheme, a remote host and what is not a URI', () => {
    expect(fileRootPath('https://example.com/repo')).toEqual({ refused: 'only file:// roots are served, not https://' });
    expect(fileRootPath('file://server/share')).toHaveProperty('refused');
    expect(fileRootPath('/home/me/project')).toEqual({ refused: 'it is not a URI' });
  });
});

describe('tooWideToServe', () => {
  it('names / and the home folder, and nothing else', async () => {
    expect(await tooWideToServe('/')).toBe('the whole disk (/)');
    expect(await tooWideToServe(homedir())).toMatch(/^the home folder \(/);
    const project = await mkdtemp(join(tmpdir(), 'start-'));
    try {
      expect(await tooWideToServe(project)).toBeUndefined();
    } finally {
      await rm(project, { recursive: true });
    }
  });
});
