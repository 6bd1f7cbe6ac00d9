/**
 * What the browser specs share: Chromium's path and whether it can run, launching it with the
 * demo server, and pages that record every request to another host and every
 * Content-Security-Policy violation Chromium reports (the specs assert both lists stay empty).
 */
import fs from 'node:fs';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { startDemoServer, type DemoServer } from '../e2e/demoServer';
import { reportSkipped } from '../skip';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Options of `BrowserSession.newPage()`. */
export interface PageOptions {
  /** Playwright's default timeout for the page's actions, in ms. */
  timeout: number;
  /** URL prefixes besides the demo server's origin that requests may go to. */
  allowedPrefixes: readonly string[];
  /** Accept every `alert`/`confirm` dialog. */
  acceptDialogs?: boolean;
}

/** A Chromium and a demo server for one browser suite. */
export class BrowserSession {
  server: DemoServer | null = null;
  browser: Browser | null = null;
  /** Requests that went to another host than the demo server. */
  readonly foreign: string[] = [];
  /** Content-Security-Policy violations Chromium reported. */
  readonly violations: string[] = [];

  /**
   * Whether the suite can run; when it cannot (SKIP_BROWSER_TESTS=1, or no Chromium), reports
   * the skip under `label` saying which `what` did not run.
   */
  static available(label: string, what: string): boolean {
    if (process.env.SKIP_BROWSER_TESTS === '1') {
      reportSkipped(label, `SKIP_BROWSER_TESTS=1, ${what} did not run.`);
      return false;
    }
    if (!fs.existsSync(CHROMIUM)) {
      reportSkipped(label, `${CHROMIUM} not found: ${what} did not run (CI installs chromium).`);
      return false;
    }
    return true;
  }

  /** Start the demo server and launch headless Chromium (the suite's `before`). */
  async start(): Promise<void> {
    const { chromium } = await import('playwright-core');
    this.server = await startDemoServer();
    this.browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  }

  /** Close Chromium and stop the demo server (the suite's `after`). */
  async stop(): Promise<void> {
    await this.browser?.close();
    this.browser = null;
    await this.server?.stop();
    this.server = null;
  }

  /** The demo server's origin. */
  get origin(): string {
    assert.ok(this.server, 'start() the browser session first');
    return this.server.origin;
  }

  /** A page in a fresh context that records foreign requests and CSP violations. */
  async newPage(options: PageOptions): Promise<Page> {
    assert.ok(this.browser && this.server, 'start() the browser session first');
    const context = await this.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(options.timeout);
    const allowed = [`${this.server.origin}/`, ...options.allowedPrefixes];
    page.on('request', (request) => {
      const url = request.url();
      if (!allowed.some((prefix) => url.startsWith(prefix))) this.foreign.push(url);
    });
    if (options.acceptDialogs) page.on('dialog', (dialog) => { void dialog.accept(); });
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) this.violations.push(`${page.url()}: ${message.text()}`);
    });
    return page;
  }
}
