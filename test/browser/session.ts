/**
 * What every browser test file shares: the real service, started before the
 * file's first test, and Chromium, launched with the first page; both are
 * closed after the file. Both start lazily inside the tests, so a missing
 * browser fails every test rather than skipping them.
 */
import { afterAll, beforeEach, expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../drivers/browser/chromium.js';
import { startWebService, type RunningWebService, type WebServiceOptions } from '../../drivers/browser/webService.js';

export interface BrowserSession {
  /** The running service; set before each test. */
  readonly service: RunningWebService;
  /**
   * A page in a browser context of its own (its own localStorage), 1200×900 and in English unless told: the client
   * speaks the browser's language, and the tests read its English words.
   */
  newPage(options?: {
    viewport?: { width: number; height: number };
    reducedMotion?: 'reduce' | 'no-preference';
    locale?: string;
  }): Promise<Page>;
}

/** `options`: the service's, such as a clock of the test's own for its tables (turnClock.browser.test.ts). */
export function browserSession(options: WebServiceOptions = {}): BrowserSession {
  let browser: Promise<Browser> | undefined;
  let running: Promise<RunningWebService> | undefined;
  let service: RunningWebService | undefined;
  beforeEach(async () => {
    running ??= startWebService(options);
    service = await running;
  });
  afterAll(async () => {
    await (await browser?.catch(() => undefined))?.close();
    await (await running?.catch(() => undefined))?.close();
  });
  return {
    get service() {
      if (service === undefined) throw new Error('the service starts before each test');
      return service;
    },
    async newPage(options = {}) {
      browser ??= launchChromium();
      return (await browser).newPage({ viewport: { width: 1200, height: 900 }, locale: 'en-US', ...options });
    },
  };
}

/** Polls until the page shows what is expected: bots and sockets answer in milliseconds, but a busy machine is slower. */
export function settle<T>(read: () => T | Promise<T>) {
  return expect.poll(read, { timeout: 30_000 });
}
