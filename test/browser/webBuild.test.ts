/**
 * The web client's build: self-contained (nothing fetched from another
 * host) and made of its own sources, so game logic cannot diverge from the
 * machines: it imports types from machines/, and code from the modules of
 * FROM_MACHINES only (with what they import): the deal check, to check each
 * deal against its revealed seed without trusting the service; the socket's
 * changes, applied as the gateway made them; and the games' rules objects,
 * so that nothing about a game is written twice.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildWeb } from '../../drivers/browser/webBuild.js';

/**
 * What the client imports from machines/: the deal check (fairDeals.ts),
 * the socket's changes (live.ts), and the games' rules objects with the
 * option catalogue and the shared side rule, so that the client's game
 * list, option form, sides and end words are the machines' own (issue 28).
 */
const FROM_MACHINES = [
  'machines/fairness/fairDeal.ts',
  'machines/viewChanges.ts',
  'machines/games/rules/index.ts',
  'machines/rules/sides.ts',
  'machines/table/options.ts',
];

describe('the web client build', () => {
  it('bundles only the client sources and loads nothing from another host', async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'suitors-web-build-'));
    try {
      const { bundled, imports } = await buildWeb(outDir);
      expect(bundled.length).toBeGreaterThan(0);
      const isClient = (file: string) => file.startsWith('services/gateway/web/src/');
      // The only code the client takes from machines/: the deal check, the socket's changes, and the games' rules objects.
      const reachedFromClient = new Set(
        bundled.filter(isClient).flatMap((file) => imports[file].filter((imported) => !isClient(imported))),
      );
      expect([...reachedFromClient].sort()).toEqual([...FROM_MACHINES].sort());
      const closure = new Set<string>();
      const visit = (file: string) => {
        if (closure.has(file)) return;
        closure.add(file);
        for (const imported of imports[file] ?? []) visit(imported);
      };
      for (const file of FROM_MACHINES) visit(file);
      expect(bundled.filter((file) => !isClient(file)).sort()).toEqual([...closure].sort());
      const html = await readFile(join(outDir, 'index.html'), 'utf8');
      expect(html).toContain('src="app.js"');
      expect(html).toContain('href="style.css"');
      expect(html).toContain('rel="icon" href="favicon.svg"');
      expect(await readFile(join(outDir, 'favicon.svg'), 'utf8')).toMatch(/^<svg /);
      for (const file of ['index.html', 'style.css', 'app.js', 'favicon.svg']) {
        const text = await readFile(join(outDir, file), 'utf8');
        expect(text, file).not.toMatch(/(src|href)=["']?(https?:)?\/\//);
        expect(text, file).not.toMatch(/@import|url\(\s*["']?https?:/);
      }
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  });
});
