import { describe, expect, it } from 'vitest';
import { cgroupDirectory, parseMountInfo, parseOwnCgroups, v1Mount } from '../src/cgroup/cgroup-mounts.ts';
import { ownerOfName } from '../src/cgroup/cgroup-owner.ts';

/** A hybrid host: v1 controllers, and a v2 hierarchy without them (the kind these tests run on). */
const HYBRID_MOUNTINFO = [
  '22 26 0:21 / /sys rw,relatime - sysfs sysfs rw',
  '30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
  '31 30 0:28 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct',
  '34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory',
  '36 30 0:33 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer',
  '38 30 0:35 / /sys/fs/cgroup/pids rw,relatime shared:9 - cgroup cgroup rw,pids',
  '39 30 0:36 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd',
  '40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
].join('\n');

const HYBRID_CGROUP = ['9:name=systemd:/', '8:pids:/', '6:freezer:/', '4:memory:/jobs/a1', '2:cpu,cpuacct:/', '0::/'].join('\n');

/** A systemd v2-only host, user session, and a container whose cgroup namespace shows its own cgroup as the root. */
const UNIFIED_MOUNTINFO = '29 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot';
const UNIFIED_CGROUP = '0::/user.slice/user-1000.slice/user@1000.service/app.slice/term.scope\n';
const BIND_MOUNTINFO = '512 500 0:26 /kubepods/pod1 /sys/fs/cgroup ro,nosuid - cgroup2 cgroup2 rw';

describe('reading the cgroup mounts and this process cgroups', () => {
  it('finds every cgroup mount of a hybrid host and its v1 controllers', () => {
    const mounts = parseMountInfo(HYBRID_MOUNTINFO);
    expect(mounts.map((mount) => [mount.version, mount.mountPoint])).toEqual([
      [1, '/sys/fs/cgroup/cpu,cpuacct'],
      [1, '/sys/fs/cgroup/memory'],
      [1, '/sys/fs/cgroup/freezer'],
      [1, '/sys/fs/cgroup/pids'],
      [1, '/sys/fs/cgroup/systemd'],
      [2, '/sys/fs/cgroup/unified'],
    ]);
    expect(v1Mount(mounts, 'cpuacct')?.mountPoint).toBe('/sys/fs/cgroup/cpu,cpuacct');
    expect(v1Mount(mounts, 'pids')?.controllers).toEqual(['pids']);
  });

  it('reads the own cgroup per controller and the unified path', () => {
    const own = parseOwnCgroups(HYBRID_CGROUP);
    expect(own.unified).toBe('/');
    expect(own.v1.get('memory')).toBe('/jobs/a1');
    expect(own.v1.get('cpuacct')).toBe('/');
    expect(parseOwnCgroups(UNIFIED_CGROUP).unified).toBe('/user.slice/user-1000.slice/user@1000.service/app.slice/term.scope');
    expect(parseOwnCgroups('0::/with:colon\n').unified).toBe('/with:colon');
  });

  it('maps a cgroup path to its directory, also under a mount that shows only part of the hierarchy', () => {
    const [pids] = parseMountInfo(HYBRID_MOUNTINFO).filter((mount) => mount.controllers.includes('pids'));
    expect(pids && cgroupDirectory(pids, '/')).toBe('/sys/fs/cgroup/pids');
    expect(pids && cgroupDirectory(pids, '/a/b')).toBe('/sys/fs/cgroup/pids/a/b');
    const [bind] = parseMountInfo(BIND_MOUNTINFO);
    expect(bind && cgroupDirectory(bind, '/kubepods/pod1/c1')).toBe('/sys/fs/cgroup/c1');
    expect(bind && cgroupDirectory(bind, '/kubepods/pod1')).toBe('/sys/fs/cgroup');
    expect(bind && cgroupDirectory(bind, '/elsewhere')).toBeUndefined();
    const [unified] = parseMountInfo(UNIFIED_MOUNTINFO);
    expect(unified?.version).toBe(2);
  });

  it('decodes escaped mount points', () => {
    const [mount] = parseMountInfo('40 30 0:37 / /mnt/with\\040space rw - cgroup2 cgroup2 rw');
    expect(mount?.mountPoint).toBe('/mnt/with space');
  });

  it('recognizes only the names this project gives its cgroups', () => {
    expect(ownerOfName('openwork-1234-5678-4026531836-0a1b2c3d4e5f')).toEqual({ pid: 1234, startTime: 5678, pidNamespace: 4026531836 });
    for (const name of ['openwork-1234-0a1b2c3d', 'openwork-test', 'user.slice', 'openwork-1-2-3-XYZ12345', 'xopenwork-1-2-3-0a1b2c3d']) {
      expect(ownerOfName(name), name).toBeUndefined();
    }
  });
});
