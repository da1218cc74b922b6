import { http } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';

describe('security headers under an https public URL (HTTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_BASE_URL: 'https://pix.example.com' } });
  });
  afterAll(() => t.close());

  it('sends Strict-Transport-Security, on framework errors too', async () => {
    for (const path of ['/health', '/v1/nope', '/v1/payments/%E0%A4%A']) {
      const res = await http(t.url, 'GET', path);
      expect([path, res.headers.get('strict-transport-security')]).toEqual([path, expect.stringMatching(/^max-age=\d{7,}/)]);
    }
  });
});
