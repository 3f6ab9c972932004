/**
 * The web client's build: self-contained (nothing fetched from another
 * host) and made of its own sources, so game logic cannot diverge from the
 * machines: it imports types from machines/, and code from two modules only:
 * machines/fairness/fairDeal.ts (with what it imports), to check each deal
 * against its revealed seed without trusting the service, and
 * machines/viewChanges.ts, to apply the socket's changes as the gateway made them.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildWeb } from '../../drivers/browser/webBuild.js';

describe('the web client build', () => {
  it('bundles only the client sources and loads nothing from another host', async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'suitors-web-build-'));
    try {
      const { bundled, imports } = await buildWeb(outDir);
      expect(bundled.length).toBeGreaterThan(0);
      const isClient = (file: string) => file.startsWith('services/gateway/web/src/');
      // The only code the client takes from machines/: the deal check, imported by fairDeals.ts alone, and the socket's changes, by live.ts.
      const reachedFromClient = bundled
        .filter(isClient)
        .flatMap((file) => imports[file].filter((imported) => !isClient(imported)).map((imported) => `${file} -> ${imported}`));
      expect(reachedFromClient.sort()).toEqual([
        'services/gateway/web/src/fairDeals.ts -> machines/fairness/fairDeal.ts',
        'services/gateway/web/src/live.ts -> machines/viewChanges.ts',
      ]);
      const closure = new Set<string>();
      const visit = (file: string) => {
        if (closure.has(file)) return;
        closure.add(file);
        for (const imported of imports[file] ?? []) visit(imported);
      };
      visit('machines/fairness/fairDeal.ts');
      visit('machines/viewChanges.ts');
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
