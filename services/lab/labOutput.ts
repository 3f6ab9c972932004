/** What a lab run leaves in its output directory: stats.json (the figures) and report.html (the same, drawn). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LabStats } from './labStats.js';
import { reportHtml } from './report/reportHtml.js';

export function writeLabOutput(out: string, stats: LabStats): { stats: string; report: string } {
  mkdirSync(out, { recursive: true });
  const files = { stats: join(out, 'stats.json'), report: join(out, 'report.html') };
  writeFileSync(files.stats, `${JSON.stringify(stats, null, 2)}\n`);
  writeFileSync(files.report, reportHtml(stats));
  return files;
}
