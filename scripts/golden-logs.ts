/**
 * Writes the golden corpus (`npm run golden`): each case of
 * test/golden/cases.ts played through this release's host, its log, where
 * the game stands at its end and (for a finished game) its record, into
 * test/fixtures/golden/<release>/ (`current` by default), in place of what
 * that folder held. Logs of earlier releases stay as they are: they are what
 * the tests replay to show that old tables still play on.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GOLDEN_CASES, playGoldenCase } from '../test/golden/cases.js';

const release = process.argv[2] ?? 'current';
const folder = join('test', 'fixtures', 'golden', release);
mkdirSync(folder, { recursive: true });
for (const file of readdirSync(folder)) if (file.endsWith('.json')) rmSync(join(folder, file));
let bytes = 0;
for (const [index, golden] of GOLDEN_CASES.entries()) {
  const played = await playGoldenCase(golden);
  const text = goldenFileText(golden, played);
  writeFileSync(join(folder, `${golden.name}.json`), text);
  bytes += text.length;
  console.log(`[${index + 1}/${GOLDEN_CASES.length}] ${golden.name}: ${played.log.length} events, ${Math.round(text.length / 1024)} KB`);
}
console.log(`wrote ${GOLDEN_CASES.length} logs, ${Math.round(bytes / 1024)} KB, to ${folder}`);

/** One event per line, so a change in a regenerated log shows as a readable diff. */
function goldenFileText(golden: object, played: { log: readonly object[]; expected: object; record: object | null }): string {
  const log = played.log.map((event) => `    ${JSON.stringify(event)}`).join(',\n');
  return `{\n  "case": ${JSON.stringify(golden)},\n  "expected": ${JSON.stringify(played.expected)},\n  "record": ${JSON.stringify(played.record)},\n  "log": [\n${log}\n  ]\n}\n`;
}
