import { randomBytes } from 'node:crypto';
import { FakeClock } from '../../src/testing/fake-clock';
import { http } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';

interface Operation {
  operationId?: string;
  requestBody?: { content: Record<string, { examples?: Record<string, { value: unknown }> }> };
}

/**
 * Every request example the API document shows for a merchant's create or change is accepted as it
 * is: Swagger UI's "Try it out" sends the first, and a merchant copies them. The clock is set before
 * the examples' dates, which are fixed in the document.
 */
describe('the documented request examples', () => {
  const clock = new FakeClock('2027-02-20T15:00:00.000Z');
  let t: TestApp;
  let key: string;
  let paths: Record<string, Record<string, Operation>>;
  beforeAll(async () => {
    t = await startTestApp({ clock });
    key = (await t.admin.newMerchant({ name: 'Loja Exemplo' })).apiKey;
    paths = (await http(t.url, 'GET', '/docs/json')).body.paths;
  });
  afterAll(() => t?.close());

  const examplesOf = (path: string, method: string) => Object.entries(paths[path]![method]!.requestBody!.content['application/json']!.examples!);
  const send = (method: 'POST' | 'PATCH', path: string, body: unknown) =>
    http(t.url, method, path, { body, headers: { 'x-merchant-key': key, 'idempotency-key': randomBytes(8).toString('hex') } });

  it.each([
    ['/v1/payments/create', 201],
    ['/v1/pix/create', 201],
    ['/v1/payment-batches', 202],
    ['/v1/recurrences', 201],
  ])('POST %s takes each of its examples', async (path, status) => {
    const examples = examplesOf(path, 'post');
    expect(examples.length).toBeGreaterThan(0);
    for (const [name, { value }] of examples) {
      const answer = await send('POST', path, value);
      expect({ name, status: answer.status, error: answer.body.error }).toEqual({ name, status, error: undefined });
    }
  });

  it("PATCH /v1/payments/{id} takes its example for a due-date charge made from the create's", async () => {
    const [, due] = examplesOf('/v1/payments/create', 'post').find(([name]) => name === 'due')!;
    const created = await send('POST', '/v1/payments/create', { ...(due.value as object), externalId: 'tuition-patch-example' });
    for (const [name, { value }] of examplesOf('/v1/payments/{id}', 'patch')) {
      const answer = await send('PATCH', `/v1/payments/${created.body.data.id}`, value);
      expect({ name, status: answer.status, error: answer.body.error }).toEqual({ name, status: 200, error: undefined });
    }
  });
});
