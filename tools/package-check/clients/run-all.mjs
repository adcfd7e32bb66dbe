// Runs every client script of this folder (each a module whose default export
// takes the fixture and returns what reached the model: its texts and its
// images) and prints one JSON object, the reports by script name. A client is
// added as one more file here.
import { readdir } from 'node:fs/promises';
import { createFixture } from './fixture.mjs';

const HELPERS = new Set(['fixture.mjs', 'run-all.mjs']);
const scripts = (await readdir(new URL('.', import.meta.url))).filter((file) => file.endsWith('.mjs') && !HELPERS.has(file)).sort();
const fixture = await createFixture();
const reports = {};
try {
  for (const script of scripts) {
    // A script that fails, to load or to run, is reported as such; the others still run.
    reports[script.replace(/\.mjs$/, '')] = await import(new URL(script, import.meta.url).href)
      .then(({ default: client }) => client(fixture))
      .catch((error) => ({ error: String(error?.stack ?? error) }));
  }
} finally {
  await fixture.close();
}
console.log(JSON.stringify(reports));
