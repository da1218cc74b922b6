import type { Page } from 'playwright-core';
import { testPki } from '../../src/testing/certificates';
import { type PixApiPsp, startPixApiPsp } from '../fakes/pix-api-psp';
import { pixApiAccountBody } from '../helpers/factories';
import { startTestApp, TestApp } from '../helpers/test-app';
import { DESKTOP, launchBrowser, nav, PHONE, screenshot, signIn } from './browser';

const pki = testPki();

/**
 * Provider accounts through the dashboard in a real browser, against the fake Pix API PSP: one
 * account from PEM files and one from a .p12 bundle (each read by the browser's FileReader), a check
 * and a webhook registration that reach the PSP, and a merchant's ordered choice of the two.
 */
describe('provider accounts (Chromium)', () => {
  let t: TestApp;
  let psp: PixApiPsp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;

  beforeAll(async () => {
    [t, psp, browser] = await Promise.all([startTestApp(), startPixApiPsp(), launchBrowser()]);
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await psp?.close();
  });
  afterEach(() => psp.assertNoViolations());

  const file = (name: string, contents: string | Buffer) => ({ name, mimeType: 'application/octet-stream', buffer: Buffer.isBuffer(contents) ? contents : Buffer.from(contents) });

  /** Opens "New account" and fills what every Pix API account has; the credentials are the caller's. */
  async function newAccount(name: string, pixKey: string) {
    await nav(page, 'Provider accounts').click();
    await page.getByRole('button', { name: 'New account' }).click();
    const dialog = page.getByRole('dialog', { name: 'New provider account' });
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByLabel('Provider', { exact: true }).selectOption('pix-api');
    await dialog.getByLabel('API base URL').fill(psp.url);
    await dialog.getByLabel('Token URL').fill(psp.tokenUrl);
    await dialog.getByLabel('Pix key').fill(pixKey);
    await dialog.getByLabel('Client ID').fill(psp.clientId);
    await dialog.getByLabel('Client secret').fill(psp.clientSecret);
    await dialog.getByLabel('Load the CA certificates from a file').setInputFiles(file('psp-ca.crt', psp.caPem));
    return dialog;
  }

  it('creates accounts from PEM files and from a .p12 bundle, checks one, registers its webhook, and a merchant chooses them in order', async () => {
    await signIn(page, t.url);

    // From PEM files: the certificate and the key each from its own file.
    let dialog = await newAccount('Banco Teste — PEM', 'pem@example.com');
    await dialog.getByLabel('Load the certificate from a file').setInputFiles(file('client.crt', pki.client.cert));
    await dialog.getByLabel('Load the private key from a file').setInputFiles(file('client.key', pki.client.key));
    // FileReader is asynchronous: each field says which file it holds once it is read.
    await dialog.getByText('Loaded: client.key').waitFor();
    expect(await dialog.getByLabel('Certificate (PEM)').inputValue()).toContain('BEGIN CERTIFICATE');
    await screenshot(page, 'desktop-provider-account-new');
    await dialog.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: /Banco Teste — PEM/ }).waitFor();
    const pemId = new URL(page.url()).pathname.split('/').pop()!;
    expect(pemId).toMatch(/^pa_/);

    // Check: a token and one read at the PSP.
    await page.getByRole('button', { name: 'Check' }).click();
    await page.getByText('The account works.').waitFor();

    // Register the webhook: the PSP now has the URL the page shows.
    const webhookUrl = (await page.getByTestId('webhook-url').textContent())!;
    await page.getByRole('button', { name: 'Register webhook' }).click();
    await page.getByText(`The webhook is registered: the PSP now posts this account's events to ${webhookUrl}`).waitFor();
    expect(psp.webhooks.get('pem@example.com')?.webhookUrl).toBe(webhookUrl);
    await screenshot(page, 'desktop-provider-account');

    // From a .p12 bundle with its password.
    dialog = await newAccount('Banco Teste — P12', 'p12@example.com');
    await dialog.getByRole('radio', { name: 'PKCS#12 bundle (.p12, .pfx)' }).check();
    await dialog.getByLabel('PKCS#12 file').setInputFiles(file('client.p12', Buffer.from(pki.clientP12.base64, 'base64')));
    await dialog.getByText('Loaded: client.p12').waitFor();
    await dialog.getByLabel('Bundle password').fill(pki.clientP12.password);
    await dialog.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: /Banco Teste — P12/ }).waitFor();
    const p12Id = new URL(page.url()).pathname.split('/').pop()!;

    // Both are listed with their certificate's expiry; a check from the list.
    await nav(page, 'Provider accounts').click();
    const row = page.getByRole('table', { name: 'Provider accounts' }).getByRole('row').filter({ hasText: 'Banco Teste — P12' });
    await row.getByRole('button', { name: 'Check' }).click();
    await row.getByText(/ok\s*\d+ ms/).waitFor();
    expect(await row.textContent()).toMatch(/Pix API.*sandbox.*active/);
    await screenshot(page, 'desktop-provider-accounts');

    // A merchant goes through the .p12 account first, then the PEM one.
    const shop = await t.admin.newMerchant({ name: 'Loja das Contas' });
    await page.goto(`${t.url}/admin/merchants/${shop.id}`);
    await page.getByRole('button', { name: 'Choose accounts' }).click();
    await page.getByLabel('Add an account').selectOption(pemId);
    await page.getByLabel('Add an account').selectOption(p12Id);
    await page.getByRole('button', { name: 'Move Banco Teste — P12 up' }).click();
    await page.getByRole('button', { name: 'Save accounts' }).click();
    await page.getByText('The provider accounts are saved: payments try them in this order.').waitFor();
    expect(await page.getByRole('list', { name: 'Provider accounts in order' }).getByRole('link').allTextContents()).toEqual(['Banco Teste — P12', 'Banco Teste — PEM']);
    const merchant = await t.admin.GET('/admin/api/merchants/{id}', { params: { path: { id: shop.id } } });
    expect(merchant.data?.provider_accounts).toEqual([p12Id, pemId]);

    // At phone width nothing sticks out sideways: the list, an account, the merchant's accounts.
    await page.setViewportSize(PHONE);
    for (const [name, path, heading] of [
      ['provider-accounts', '/admin/provider-accounts', 'Provider accounts'],
      ['provider-account', `/admin/provider-accounts/${pemId}`, 'Banco Teste — PEM'],
      ['merchant-accounts', `/admin/merchants/${shop.id}`, 'Loja das Contas'],
    ] as const) {
      await page.goto(`${t.url}${path}`);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.locator('.spinner').waitFor({ state: 'detached' });
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await screenshot(page, `phone-${name}`);
    }
    await page.setViewportSize(DESKTOP);
  });

  it("builds the form from the catalogue: a bank's hosts as placeholders, its own fields, the simulated PSP's one secret", async () => {
    const catalogue = (await t.admin.GET('/admin/api/providers')).data!;
    // A bank whose production hosts the gateway knows, and that asks for a field the standard does not have.
    const standard = new Set(catalogue.find((p) => p.name === 'pix-api')!.credentials.map((f) => f.name));
    const bank = catalogue.find((p) => p.environments.some((e) => e.name === 'production' && e.base_url) && p.credentials.some((f) => !standard.has(f.name)))!;
    const production = bank.environments.find((e) => e.name === 'production')!;

    await page.goto(`${t.url}/admin/provider-accounts`);
    await page.getByRole('button', { name: 'New account' }).click();
    const dialog = page.getByRole('dialog', { name: 'New provider account' });
    expect(await dialog.getByLabel('Provider', { exact: true }).locator('option').allTextContents()).toEqual(['Choose the PSP…', ...catalogue.map((p) => p.label)]);
    await dialog.getByLabel('Provider', { exact: true }).selectOption(bank.name);
    await dialog.getByLabel('Environment', { exact: true }).selectOption('production');
    // React renders after the change event: wait for the production host rather than read at once.
    await dialog.locator(`input[placeholder="${production.base_url}"]`).waitFor();
    expect(await dialog.getByLabel('API base URL').getAttribute('placeholder')).toBe(production.base_url);
    expect(await dialog.getByLabel('Token URL').getAttribute('placeholder')).toBe(production.token_url);
    // Every field it takes is asked for (an optional one says so in its label), but those of the certificate forms not chosen.
    const hidden = new Set(bank.one_of.flatMap((group) => group.options.slice(1).flatMap((option) => option.fields)));
    for (const field of bank.credentials.filter((f) => !hidden.has(f.name))) expect(await dialog.getByText(field.label.replace(/ \(.*\)$/, '')).count()).toBeGreaterThan(0);
    await screenshot(page, 'desktop-provider-account-new-bank');
    await page.setViewportSize(PHONE);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await screenshot(page, 'phone-provider-account-new-bank');
    await page.setViewportSize(DESKTOP);

    // The simulated PSP: one environment, no Pix key, no certificate, an optional secret.
    await dialog.getByLabel('Provider', { exact: true }).selectOption('sandbox');
    await dialog.getByLabel('Webhook secret').waitFor();
    expect(await dialog.getByLabel('Environment', { exact: true }).locator('option').allTextContents()).toEqual(['Sandbox']);
    expect(await dialog.getByLabel('Pix key').count()).toBe(0);
    await dialog.getByLabel('Name', { exact: true }).fill('Simulada');
    await dialog.getByLabel('Webhook secret').fill('a-secret-of-24-characters');
    await dialog.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: /Simulada/ }).waitFor();
    // The provider's label comes with the catalogue, read by the account's page.
    await page.locator('.fields').first().getByText('Sandbox (simulated PSP)').waitFor();
  });

  it('fits the accounts table in its container at desktop widths, with Check and Copy in reach, and the certificate badge inside its card at phone width', async () => {
    // The widest rows a page shows: long names, a certificate about to expire, a failed check's detail.
    const created = [];
    for (const [name, secret] of [
      ['Cooperativa de Crédito dos Produtores Rurais — conta principal', psp.clientSecret],
      ['Banco Teste com um nome bem comprido — homologação', 'a-wrong-client-secret'],
    ] as const) {
      const res = await t.admin.POST('/admin/api/provider-accounts', {
        body: pixApiAccountBody(psp, { name, credentials: { ...pixApiAccountBody(psp).credentials, client_secret: secret } }),
      });
      expect(res.status).toBe(201);
      created.push(res.data!);
    }
    // As test set-up, a certificate expiring in 29 days: the longest badge the column shows.
    await t.dataSource.query(`UPDATE provider_accounts SET credentials_summary = credentials_summary || jsonb_build_object('certificateExpiresAt', $2::text) WHERE id = $1`, [
      created[0]!.id,
      new Date(Date.now() + 29.5 * 24 * 3600 * 1000).toISOString(),
    ]);

    // Signed in already when the tests above ran first; not when this one runs alone.
    await page.goto(`${t.url}/admin`);
    await page.getByLabel('Email').or(nav(page, 'Overview')).first().waitFor();
    if (await page.getByLabel('Email').isVisible()) await signIn(page, t.url);
    const table = page.getByRole('table', { name: 'Provider accounts' });
    for (const width of [DESKTOP.width, 1024]) {
      await page.setViewportSize({ width, height: DESKTOP.height });
      await page.goto(`${t.url}/admin/provider-accounts`);
      const row = table.getByRole('row').filter({ hasText: 'Banco Teste com um nome bem comprido' });
      await row.getByRole('button', { name: 'Check' }).click();
      await row.getByText(/failed\s*\d+ ms/).waitFor();
      await table.getByText('expires in 29 days').waitFor();

      // The table is no wider than the card around it: nothing is cut off or needs a scroll.
      const fit = await table.evaluate((el) => ({ table: el.getBoundingClientRect().width, card: el.closest('.card')!.getBoundingClientRect().width }));
      expect(fit.table).toBeLessThanOrEqual(fit.card);
      const card = (await table.evaluate((el) => el.closest('.card')!.getBoundingClientRect().right))!;
      for (const button of [...(await table.getByRole('button', { name: 'Check' }).all()), ...(await table.getByRole('button', { name: 'Copy' }).all())]) {
        const box = (await button.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(card);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
      }
      await screenshot(page, `desktop-provider-accounts-${width}`);
    }

    // At phone width each row is a card: the certificate's badge stays inside it.
    await page.setViewportSize(PHONE);
    await page.goto(`${t.url}/admin/provider-accounts`);
    const badge = table.getByText('expires in 29 days');
    await badge.waitFor();
    const cell = await badge.evaluate((el) => {
      const row = el.closest('tr')!.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      return { left: box.left, right: box.right, rowLeft: row.left, rowRight: row.right };
    });
    expect(cell.left).toBeGreaterThanOrEqual(cell.rowLeft);
    expect(cell.right).toBeLessThanOrEqual(cell.rowRight);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await screenshot(page, 'phone-provider-accounts-long');
    await page.setViewportSize(DESKTOP);
  });
});
