// `pnpm --filter @openwork/package-check measure-install [--repository DIR]`:
// packs the packages (built beforehand) of this repository, or of another
// copy of it (an earlier commit, to compare), installs each consumer of
// CONSUMERS into a fresh npm project and prints what the install weighs.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CONSUMERS, installConsumer, measureInstall, type ConsumerName } from './install-size.ts';
import { packPackages } from './pack.ts';

const args = process.argv.slice(2);
const repositoryFlag = args.indexOf('--repository');
const repository = repositoryFlag === -1 ? undefined : resolve(args[repositoryFlag + 1] ?? '.');
const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

const base = await mkdtemp(join(tmpdir(), 'install-size-'));
try {
  const tarballs = await packPackages(join(base, 'tarballs'), repository === undefined ? {} : { repository });
  for (const consumer of Object.keys(CONSUMERS) as ConsumerName[]) {
    const project = join(base, consumer);
    await installConsumer(project, consumer, tarballs);
    const size = await measureInstall(project);
    console.log(`${consumer}: ${mb(size.diskBytes)} on disk, ${mb(size.apparentBytes)} of files, ${size.packages.length} packages`);
    for (const entry of size.largest) console.log(`  ${entry.name.padEnd(40)} ${mb(entry.diskBytes)}`);
  }
} finally {
  await rm(base, { recursive: true, force: true });
}
