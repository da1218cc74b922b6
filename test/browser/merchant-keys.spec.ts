import type { Page } from 'playwright-core';
import { http } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';
import { DESKTOP, launchBrowser, PHONE, screenshot, signIn } from './browser';

/**
 * A merchant's page in a real browser: its provider chosen from the providers the gateway runs (not
 * typed), and its keys with their last use, which a request with the key records.
 */
describe("a merchant's provider and keys (Chromium)", () => {
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('chooses the provider from a list, and shows which key was used and which never was', async () => {
    const shop = await t.admin.newMerchant({ name: 'Loja das Chaves' });
    const unused = await t.admin.POST('/admin/api/merchants/{id}/api-keys', { params: { path: { id: shop.id } } });
    // The first key authenticates one request: its last use is recorded.
    expect((await http(t.url, 'GET', '/v1/api-keys/current', { headers: { 'x-merchant-key': shop.apiKey } })).status).toBe(200);

    await signIn(page, t.url);
    await page.goto(`${t.url}/admin/merchants/${shop.id}`);
    await page.getByRole('heading', { name: 'Loja das Chaves', level: 1 }).waitFor();

    const keys = page.getByRole('table', { name: 'API keys' });
    await keys.getByText('within the last minute').waitFor();
    const rows = await keys.getByRole('row').allTextContents();
    expect(rows.find((row) => row.includes(unused.data!.prefix))).toContain('never');
    expect(rows.find((row) => row.includes(shop.apiKey.slice(0, 12)))).toContain('within the last minute');

    // The provider: a list of the providers this gateway runs, and the default.
    const catalogue = (await t.admin.GET('/admin/api/providers')).data!;
    const provider = page.getByLabel('Provider', { exact: true });
    expect(await provider.evaluate((el) => el.tagName)).toBe('SELECT');
    expect(await provider.locator('option').allTextContents()).toEqual(["The gateway's default", ...catalogue.filter((p) => p.built_in).map((p) => p.label)]);
    await provider.selectOption('sandbox');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    expect((await t.admin.GET('/admin/api/merchants/{id}', { params: { path: { id: shop.id } } })).data!.provider).toBe('sandbox');
    await screenshot(page, 'desktop-merchant-keys');

    await page.setViewportSize(PHONE);
    await page.reload();
    await keys.getByText('within the last minute').waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await screenshot(page, 'phone-merchant-keys');
    await page.setViewportSize(DESKTOP);
  });
});
