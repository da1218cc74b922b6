import type { Page } from 'playwright-core';
import { startTestApp, TestApp } from '../helpers/test-app';
import { ADMIN_EMAIL, ADMIN_PASSWORD, launchBrowser, nav, screenshot, signIn } from './browser';

/** The sign-in protections as a browser meets them: validation, wrong password, cookie, CSRF, expiry, sign-out, backoff. */
describe('dashboard sign-in (Chromium)', () => {
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  const sessionPosts: string[] = [];

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    page = browser.page;
    page.on('request', (req) => {
      if (req.method() === 'POST' && req.url().endsWith('/admin/api/session')) sessionPosts.push(req.url());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function tryPassword(password: string): Promise<void> {
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('checks the form before sending it', async () => {
    await page.goto(`${t.url}/admin/merchants`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Enter your email address.').waitFor();
    await page.getByText('Enter your password.').waitFor();
    await page.getByLabel('Email').fill('not an email');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('This does not look like an email address.').waitFor();
    expect(sessionPosts).toEqual([]);
  });

  it('says a wrong password is wrong, in words, and stays signed out', async () => {
    await tryPassword('not the password');
    await page.getByRole('alert').getByText('The email or password is wrong.').waitFor();
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    await screenshot(page, 'desktop-login-wrong-password');
    expect((await browser.context.cookies()).filter((c) => c.name === 'gw_admin_session')).toEqual([]);
  });

  it('keeps the session in an httpOnly, SameSite=Strict cookie that page scripts cannot read', async () => {
    await signIn(page, t.url);
    const [cookie] = (await browser.context.cookies()).filter((c) => c.name === 'gw_admin_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/admin', secure: false });
    expect(await page.evaluate('document.cookie')).not.toContain('gw_admin_session');
  });

  it('refuses a change made with the cookie alone (no X-CSRF-Token): 403, nothing created', async () => {
    const attempt = (withToken: boolean) =>
      page.evaluate(async (withToken) => {
        const session = (await (await fetch('/admin/api/session')).json()) as { data: { csrf_token: string } };
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (withToken) headers['x-csrf-token'] = session.data.csrf_token;
        const res = await fetch('/admin/api/merchants', { method: 'POST', headers, body: JSON.stringify({ name: 'Forged' }) });
        return { status: res.status, body: (await res.json()) as { error?: { code: string } } };
      }, withToken);
    const forged = await attempt(false);
    expect(forged.status).toBe(403);
    expect(forged.body.error?.code).toBe('FORBIDDEN');
    const list = await page.evaluate(async () => ((await (await fetch('/admin/api/merchants')).json()) as { data: { items: unknown[] } }).data.items.length);
    expect(list).toBe(0);
    expect((await attempt(true)).status).toBe(201);
  });

  it('sends an expired session back to the sign-in page with the reason', async () => {
    await t.dataSource.query(`UPDATE admin_sessions SET idle_expires_at = now() - interval '1 second'`);
    await nav(page, 'Merchants').click();
    await page.getByText('Your session has expired. Please sign in again.').waitFor();
    await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
    await screenshot(page, 'desktop-login-expired');
  });

  it('signs out: the session ends on the server, a reload shows the sign-in page', async () => {
    await signIn(page, t.url);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have signed out.').waitFor();
    const [{ count }] = await t.dataSource.query(`SELECT count(*)::int AS count FROM admin_sessions WHERE idle_expires_at > now()`);
    expect(count).toBe(0);
    await page.goto(`${t.url}/admin`);
    await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
  });

  // Last: it leaves this address locked out for a while.
  it('slows down repeated failures and says for how long', async () => {
    // Ten failures throttle the address (and back the account off); earlier tests' failures count too.
    for (let i = 0; i < 10; i++) {
      await tryPassword(`guess-${i}`);
      await page.getByRole('alert').waitFor();
      await page.getByRole('button', { name: 'Sign in' }).and(page.locator(':not([disabled])')).waitFor();
    }
    await tryPassword(ADMIN_PASSWORD);
    await page
      .getByRole('alert')
      .getByText(/Too many failed (sign-ins to this account|authentication attempts from this address)\. Try again in \d+ seconds?\./)
      .waitFor();
    expect(await page.getByRole('heading', { name: 'Overview' }).count()).toBe(0);
  });
});
