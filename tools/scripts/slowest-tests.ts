// Printed at the end of `pnpm test`: the ten slowest test files, from each package's last run (nx replays a cached one).
import { readDurations, slowestLines } from './test-durations.ts';

const lines = slowestLines(readDurations(), 10);
if (lines.length > 0) process.stdout.write(`\nThe ten slowest test files:\n${lines.map((line) => `  ${line}`).join('\n')}\n`);
