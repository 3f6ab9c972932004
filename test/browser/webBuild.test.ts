/**
 * The web client's build: self-contained (nothing fetched from another
 * host) and made only of its own sources, so game logic cannot diverge from
 * the machines: it imports types from machines/, never code.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';

describe('the web client build', () => {
  it('bundles only the client sources and loads nothing from another host', async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'suitors-web-build-'));
    try {
      const { bundled } = await buildWeb(outDir);
      expect(bundled.length).toBeGreaterThan(0);
      expect(bundled.filter((file) => !file.startsWith('services/gateway/web/src/'))).toEqual([]);
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
