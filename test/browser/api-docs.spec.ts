import type { Page } from 'playwright-core';
import { startTestApp, TestApp } from '../helpers/test-app';
import { launchBrowser, screenshot } from './browser';

/** Swagger UI at /docs works under the gateway's Content-Security-Policy, and asks no other host for anything. */
describe('API docs (Chromium)', () => {
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp({ env: { PUBLIC_BASE_URL: 'https://pix.example.com' } }), launchBrowser()]);
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders the operations with no CSP violation and no request to another host', async () => {
    const violations: string[] = [];
    const elsewhere: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(t.url) && !request.url().startsWith('data:')) elsewhere.push(request.url());
    });
    await page.goto(`${t.url}/docs`);
    await page.getByText('/v1/payments/create').first().waitFor();
    await screenshot(page, 'api-docs');
    expect(violations).toEqual([]);
    expect(elsewhere).toEqual([]);
  });
});
