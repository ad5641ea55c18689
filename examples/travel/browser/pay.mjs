// Drives the travel server's payment page in a real headless Chromium (Debian's `chromium`,
// through playwright-core; no browser of Playwright's own) for ../tests/browser.rs.
//
//   node pay.mjs pay URL [open URL]...
//
// Each `pay URL` opens the page, reads it, presses Pay and waits for the page to say it was paid
// (or to show an error); each `open URL` opens a page and reads it. Every step gets a fresh tab
// of one browser. Prints one JSON report per step, in order, as a JSON array on stdout: the HTTP
// status of the document, its title, heading and text, the Pay button (its label and whether it
// is enabled, before and after), what the status line said after Pay, every response, and
// everything the browser's console reported as an error or warning, every uncaught exception,
// every request that failed, and `error` when a step could not be done (no Pay button, no
// outcome shown within 15 s). The test asserts on the report; this script fails (exit 1) only
// when the browser could not be driven at all.
//
// CHROMIUM names the browser (default /usr/bin/chromium).

import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const STEP_TIMEOUT_MS = 15_000;

const steps = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i += 2) {
  const [kind, url] = [args[i], args[i + 1]];
  if (!['pay', 'open'].includes(kind) || !url) {
    console.error('usage: node pay.mjs pay URL [open URL]...');
    process.exit(2);
  }
  steps.push({ kind, url });
}

// A fresh, empty profile each run; no background traffic (the machine's network is closed, and
// a test should not depend on it).
const profile = mkdtempSync(path.join(tmpdir(), 'rondo-chromium-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});

const reports = [];
try {
  for (const step of steps) reports.push(await run(step));
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
process.stdout.write(JSON.stringify(reports, null, 2) + '\n');

async function run({ kind, url }) {
  const page = await browser.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  const report = { kind, url, console: [], pageErrors: [], failedRequests: [], requests: [] };
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') {
      report.console.push({ type: m.type(), text: m.text(), location: m.location().url });
    }
  });
  page.on('pageerror', (e) => report.pageErrors.push(String(e)));
  page.on('requestfailed', (r) =>
    report.failedRequests.push({ url: r.url(), error: r.failure()?.errorText }),
  );
  page.on('response', (r) =>
    report.requests.push({ method: r.request().method(), url: r.url(), status: r.status() }),
  );

  try {
    await look(page, kind, url, report);
  } catch (e) {
    // Reported, with what the console said meanwhile, rather than thrown: the test shows both.
    report.error = String(e);
  }
  // Anything the page logs late (a rejected promise after the click) is still caught.
  await page.waitForTimeout(200);
  await page.close();
  return report;
}

async function look(page, kind, url, report) {
  const res = await page.goto(url, { waitUntil: 'load' });
  report.status = res ? res.status() : null;
  report.title = await page.title();
  report.heading = await page.locator('h1').first().textContent();
  report.text = await page.locator('body').innerText();
  const button = page.getByRole('button');
  report.buttons = await button.count();
  if (report.buttons > 0) {
    report.buttonLabel = (await button.first().textContent()).trim();
    report.buttonEnabled = await button.first().isEnabled();
  }
  if (kind === 'pay') {
    const status = page.locator('#status');
    report.statusBefore = await status.textContent();
    await page.getByRole('button', { name: /^Pay / }).click();
    // The page's script replaces the status line with the outcome, paid or not.
    await page.waitForFunction(
      (before) => document.getElementById('status').textContent !== before,
      report.statusBefore,
    );
    report.statusAfter = await status.textContent();
    report.buttonEnabledAfter = await button.first().isEnabled();
    report.textAfter = await page.locator('body').innerText();
  }
}
