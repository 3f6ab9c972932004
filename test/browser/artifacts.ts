/** Where the browser tests keep their screenshots: test-artifacts/browser/<name>.png, for a person to look at after a run. */
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

export const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-artifacts', 'browser');

/** Saves a full-page screenshot as a test artifact. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
