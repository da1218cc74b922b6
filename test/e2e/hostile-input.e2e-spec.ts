import { randomBytes } from 'node:crypto';
import { request as httpRequest, Agent } from 'node:http';
import { connect } from 'node:net';
import { ERROR_TABLE, ErrorCode } from '../../src/common/errors/error-codes';
import { signSandboxPayload, SANDBOX_SIGNATURE_HEADER } from '../../src/providers/sandbox/sandbox-signature';
import { newMerchantOverHttp } from '../helpers/admin-http';
import { newPayment, paymentBody } from '../helpers/factories';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp, testDatabase } from '../helpers/test-app';

const WEBHOOK_SECRET = 'hostile-input-webhook-secret';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TABLES = ['merchants', 'api_keys', 'payments', 'payment_events', 'webhook_deliveries', 'idempotency_records', 'admin_sessions'];

interface Answer {
  status: number;
  text: string;
}

/** One request over node:http, which lets the test send what fetch refuses (any method, raw bytes). */
function send(url: string, method: string, path: string, headers: Record<string, string>, body?: Buffer, agent?: Agent): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest({ host: hostname, port, method, path, headers, agent }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    // An oversized body may be refused before it is all written; the answer is what counts.
    req.on('error', (error) => (answered ? undefined : reject(error)));
    req.end(body);
  });
}

/** Raw bytes on a fresh socket, for requests Node's own client will not produce; the first answer is parsed. */
function sendRaw(url: string, bytes: Buffer): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error('no answer within 5 s')), 5_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const match = /^HTTP\/1\.1 (\d{3})[^\r]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(text);
      if (!match) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const length = /content-length: (\d+)/i.exec(match[2]!);
      resolve({ status: Number(match[1]), text: length ? Buffer.from(match[3]!).subarray(0, Number(length[1])).toString('utf8') : match[3]! });
    });
    socket.end(bytes);
  });
}

/** Fails with a readable reason unless the answer is a 4xx error envelope whose code fits its status. */
function envelopeProblem(answer: Answer): string | null {
  if (answer.status >= 500 || answer.status < 400) return `status ${answer.status}`;
  let body: { success?: unknown; error?: { code?: unknown; message?: unknown }; request_id?: unknown; provider?: unknown };
  try {
    body = JSON.parse(answer.text);
  } catch {
    return 'the body is not JSON';
  }
  if (body.success !== false) return 'success is not false';
  const code = body.error?.code;
  if (typeof code !== 'string' || !(code in ERROR_TABLE)) return `unknown error code ${String(code)}`;
  if (ERROR_TABLE[code as ErrorCode].status !== answer.status) return `${code} with status ${answer.status}`;
  if (typeof body.error?.message !== 'string') return 'no error.message';
  if (typeof body.request_id !== 'string' || !UUID_V4.test(body.request_id)) return 'no request_id';
  if (typeof body.provider !== 'string') return 'no provider';
  return null;
}

async function countRows(t: TestApp): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) counts[table] = Number((await t.dataSource.query(`SELECT count(*) AS n FROM ${table}`))[0].n);
  return counts;
}

const db = testDatabase();

/** A gateway with signed sandbox events, a merchant key and one of its payments. */
async function gatewayWithPayment(): Promise<{ t: TestApp; apiKey: string; paymentId: string }> {
  const t = await startTestApp({ db, env: { SANDBOX_WEBHOOK_SECRET: WEBHOOK_SECRET } });
  const merchant = await newMerchantOverHttp(t.url, TEST_ADMIN_TOKEN);
  return { t, apiKey: merchant.apiKey, paymentId: (await newPayment(t.dataSource, merchant.id)).id };
}

// One gateway for the whole file: both blocks below need the same settings, and each compares
// what it stores against its own starting point.
let t: TestApp;
let apiKey: string;
let paymentId: string;
beforeAll(async () => ({ t, apiKey, paymentId } = await gatewayWithPayment()));
afterAll(() => t.close());

describe(`hostile input: each rule (HTTP, ${db})`, () => {
  const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };

  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    send(t.url, 'POST', path, { 'content-type': 'application/json', ...headers }, Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)));
  const merchantHeaders = () => ({ 'x-merchant-key': apiKey, 'idempotency-key': randomBytes(8).toString('hex') });
  const signed = (raw: string) => ({ [SANDBOX_SIGNATURE_HEADER]: signSandboxPayload(WEBHOOK_SECRET, raw, Date.now() / 1000) });

  async function expectRefused(answer: Answer, status: number, code: string, field?: string): Promise<void> {
    expect(envelopeProblem(answer)).toBeNull();
    const body = JSON.parse(answer.text);
    expect([answer.status, body.error.code]).toEqual([status, code]);
    if (field) expect(body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
  }

  it('refuses a control character in every text field of a payment, naming the field, and stores nothing', async () => {
    const before = await countRows(t);
    for (const path of ['/v1/payments/create', '/v1/pix/create']) {
      for (const field of ['currency', 'recipientDocument', 'recipientName', 'description', 'externalId']) {
        for (const char of ['\u0000', '\u0007', '\u001b', '\u007f']) {
          await expectRefused(await post(path, paymentBody({ [field]: `A${char}B` }), merchantHeaders()), 400, 'VALIDATION_ERROR', field);
        }
      }
    }
    expect(await countRows(t)).toEqual(before);
  });

  it('allows tab, CR and LF in a description only', async () => {
    const ok = await post('/v1/payments/create', paymentBody({ description: 'line one\r\n\tline two' }), merchantHeaders());
    expect(ok.status).toBe(201);
    await expectRefused(await post('/v1/payments/create', paymentBody({ recipientName: 'Ana\nSouza' }), merchantHeaders()), 400, 'VALIDATION_ERROR', 'recipientName');
  });

  it('refuses amounts with more than two decimal places, 1e-7 included', async () => {
    for (const amount of ['1e-7', '0.001', '10.505', '1e-300', '-1e-7', '1e400', '123456789012345678901234567890']) {
      await expectRefused(
        await post('/v1/payments/create', JSON.stringify(paymentBody()).replace('"amount":10.5', `"amount":${amount}`), merchantHeaders()),
        400,
        'VALIDATION_ERROR',
        'amount',
      );
    }
    await expectRefused(await post(`/admin/api/payments/${paymentId}/simulate`, { event: 'payment.confirmed', amount: 1e-7 }, admin), 400, 'VALIDATION_ERROR', 'amount');
  });

  it('refuses JSON nested deeper than 32 levels, and accepts 32', async () => {
    const nest = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    // The body is level 1, so a field holding n levels makes the body n + 1 deep.
    await expectRefused(await post('/v1/payments/create', `{"amount":${nest(32)}}`, merchantHeaders()), 400, 'VALIDATION_ERROR', 'amount');
    await expectRefused(await post('/v1/payments/create', `{"amount":${nest(5000)}}`, merchantHeaders()), 400, 'VALIDATION_ERROR', 'amount');
    const shallow = JSON.parse(await post('/v1/payments/create', `{"amount":${nest(31)}}`, merchantHeaders()).then((a) => a.text));
    expect(shallow.error.details.fields).not.toContainEqual(expect.objectContaining({ message: expect.stringContaining('nested') }));
    const raw = `{"event":"payment.confirmed","id":"evt_deep","data":{"id":"x","amount":1,"extra":${nest(40)}}}`;
    await expectRefused(await post('/webhooks/sandbox', raw, signed(raw)), 400, 'VALIDATION_ERROR', 'data');
  });

  it('refuses control characters and invalid Unicode in admin bodies and queries', async () => {
    const before = await countRows(t);
    for (const [field, value] of [
      ['name', 'Loja\u0000'],
      ['webhook_url', 'https://a.example\u0000/'],
      ['webhook_signing_secret', 'whsec\u0001secret-secret'],
      ['provider', 'sandbox\u0000'],
    ]) {
      await expectRefused(await post('/admin/api/merchants', { name: 'Loja', [field!]: value }, admin), 400, 'VALIDATION_ERROR', field);
    }
    await expectRefused(await post('/admin/api/merchants', '{"name":"Loja \\ud800"}', admin), 400, 'VALIDATION_ERROR', 'name');
    await expectRefused(await post('/admin/api/session', { email: 'admin@example.com\u0000', password: 'x' }, {}), 400, 'VALIDATION_ERROR', 'email');
    await expectRefused(await send(t.url, 'GET', '/admin/api/merchants?q=Loja%00', admin), 400, 'VALIDATION_ERROR', 'q');
    expect(await countRows(t)).toEqual(before);
  });

  it('refuses a webhook event with a NUL at intake (400, not stored), and the next event is applied', async () => {
    const before = await countRows(t);
    for (const poisoned of [
      { event: 'payment.confirmed', id: 'evt_nul\u0000', data: { id: paymentId, amount: 10.5 } },
      { event: 'payment.confirmed', id: 'evt_nul_status', data: { id: paymentId, amount: 10.5, status: 'CONCLUIDA\u0000' } },
      { event: 'payment.confirmed', id: 'evt_nul_key', data: { id: paymentId, amount: 10.5, 'k\u0000': 1 } },
    ]) {
      const raw = JSON.stringify(poisoned);
      await expectRefused(await post('/webhooks/sandbox', raw, signed(raw)), 400, 'VALIDATION_ERROR');
    }
    const outOfRange = JSON.stringify({ event: 'payment.confirmed', id: 'evt_year', created_at: '-100000-01-01T00:00:00Z', data: { id: paymentId, amount: 10.5 } });
    await expectRefused(await post('/webhooks/sandbox', outOfRange, signed(outOfRange)), 400, 'VALIDATION_ERROR', 'created_at');
    const surrogate = `{"event":"payment.confirmed","id":"evt_\\udc00","data":{"id":"${paymentId}","amount":10.5}}`;
    await expectRefused(await post('/webhooks/sandbox', surrogate, signed(surrogate)), 400, 'VALIDATION_ERROR', 'id');
    expect(await countRows(t)).toEqual(before);
    const good = JSON.stringify({ event: 'payment.confirmed', id: 'evt_after_poison', data: { id: paymentId, amount: 10.5 } });
    const applied = await post('/webhooks/sandbox', good, signed(good));
    expect(applied.status).toBe(200);
    expect(JSON.parse(applied.text).data).toMatchObject({ matched: true, applied: true, status: 'paid' });
  });

  it("answers Fastify's own errors with the envelope: long parameters 404, bad percent-encoding 400", async () => {
    const key = { 'x-merchant-key': apiKey };
    await expectRefused(await send(t.url, 'GET', `/v1/payments/${'a'.repeat(5000)}`, key), 404, 'NOT_FOUND');
    await expectRefused(await send(t.url, 'GET', `/v1/payments/${'a'.repeat(129)}`, key), 404, 'NOT_FOUND');
    await expectRefused(await send(t.url, 'GET', `/v1/payments/${'a'.repeat(128)}`, key), 404, 'NOT_FOUND');
    await expectRefused(await send(t.url, 'GET', '/v1/payments/%E0%A4%A', key), 400, 'VALIDATION_ERROR', 'path');
    await expectRefused(await send(t.url, 'GET', '/admin/api/merchants/%', { authorization: admin.authorization }), 400, 'VALIDATION_ERROR', 'path');
  });

  it('answers requests Node refuses to parse with the envelope', async () => {
    await expectRefused(await sendRaw(t.url, Buffer.from(`GET /v1/payments/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`)), 400, 'VALIDATION_ERROR');
    await expectRefused(await sendRaw(t.url, Buffer.from('POST /webhooks/sandbox HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}')), 400, 'VALIDATION_ERROR');
    await expectRefused(await sendRaw(t.url, Buffer.from('GET /health HTTP/1.1\r\nHo st: x\r\n\r\n')), 400, 'VALIDATION_ERROR');
  });

  it('answers an oversized body 413 in the envelope', async () => {
    await expectRefused(await post('/v1/payments/create', paymentBody({ description: 'x'.repeat(70 * 1024) }), merchantHeaders()), 413, 'PAYLOAD_TOO_LARGE');
  });
});

// ---------------------------------------------------------------------------------------------
// 2,000 malformed requests of every kind, generated from a seeded PRNG so a failure can be replayed.

/** mulberry32: small, seedable, good enough to pick test cases. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

interface Case {
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Sent as raw bytes on its own socket instead (method, path and headers unused). */
  raw?: Buffer;
}

type FieldKind = 'text' | 'multiline' | 'amount';
interface Target {
  path: string;
  /** A valid body; every case below breaks it in a way that must be refused. */
  base: () => Record<string, unknown>;
  fields: Record<string, FieldKind>;
  /** Whether an unknown field or a wrong type in any field is refused (DTO bodies), or only some fields are checked (provider events). */
  strict: boolean;
  headers: () => Record<string, string>;
  sign?: boolean;
}

const SEED = Number(process.env.HOSTILE_SEED ?? 20261123);
const TOTAL = 2_000;
const IN_FLIGHT = 16;

describe(`hostile input: ${TOTAL} malformed requests (HTTP, ${db}, seed ${SEED})`, () => {
  function cases(): Case[] {
    const random = prng(SEED);
    const int = (n: number) => Math.floor(random() * n);
    const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
    const admin = () => ({ authorization: `Bearer ${TEST_ADMIN_TOKEN}` });
    const merchant = () => ({ 'x-merchant-key': apiKey, 'idempotency-key': `fuzz-${int(1e9)}` });
    const payment = { amount: 'amount', currency: 'text', recipientDocument: 'text', recipientName: 'text', description: 'multiline', externalId: 'text' } as const;
    const targets: Target[] = [
      { path: '/v1/payments/create', base: () => paymentBody({ method: 'pix' }), fields: { ...payment, method: 'text' }, strict: true, headers: merchant },
      { path: '/v1/pix/create', base: () => paymentBody(), fields: payment, strict: true, headers: merchant },
      {
        path: '/webhooks/sandbox',
        base: () => ({ event: 'payment.confirmed', id: `evt_fuzz_${int(1e9)}`, created_at: new Date().toISOString(), data: { id: paymentId, amount: 10.5, status: 'CONCLUIDA' } }),
        fields: { event: 'text', id: 'text', created_at: 'text', 'data.id': 'text', 'data.amount': 'amount', 'data.status': 'text' },
        strict: false,
        headers: () => ({}),
        sign: true,
      },
      {
        path: '/admin/api/merchants',
        base: () => ({ name: `Loja ${int(1e6)}`, webhook_url: 'https://shop.example.com/hook', provider: 'sandbox' }),
        fields: { name: 'text', webhook_url: 'text', webhook_signing_secret: 'text', provider: 'text' },
        strict: true,
        headers: admin,
      },
      {
        path: '/admin/api/session',
        base: () => ({ email: 'admin@example.com', password: 'wrong password' }),
        fields: { email: 'text', password: 'text' },
        strict: true,
        headers: () => ({}),
      },
    ];
    const controlChar = (multiline: boolean) => {
      const allowed = multiline ? [0x09, 0x0a, 0x0d] : [];
      let code;
      do code = pick([...Array.from({ length: 32 }, (_, i) => i), 0x7f]);
      while (allowed.includes(code));
      return String.fromCharCode(code);
    };
    // Raw JSON texts for numbers JSON.stringify cannot write, and values no field accepts.
    const badAmounts = ['1e-7', '0.001', '10.555', '-1', '0', '-0', '1e308', '1e400', '"10.50"', '"NaN"', '"-Infinity"', 'null', 'true', '[]', '{}', '9999999999999999999999'];
    const wrongTypes = ['123', 'true', 'null', '[]', '{}', '["a"]', '{"a":"b"}', '1.5'];
    const nest = (depth: number) => '['.repeat(depth) + '"x"' + ']'.repeat(depth);
    const setField = (body: Record<string, unknown>, field: string, value: unknown) => {
      const [head, tail] = field.split('.') as [string, string | undefined];
      if (tail) (body[head] as Record<string, unknown>)[tail] = value;
      else body[head] = value;
    };
    /** JSON text of `body` with `field` replaced by a raw JSON value. */
    const withRaw = (body: Record<string, unknown>, field: string, rawValue: string) => {
      const marker = `__raw_${int(1e9)}__`;
      setField(body, field, marker);
      return JSON.stringify(body).replace(`"${marker}"`, rawValue);
    };

    const out: Case[] = [];
    const push = (label: string, target: Target, text: string | Buffer, headers: Record<string, string> = {}, contentType = 'application/json') => {
      const body = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
      const sig: Record<string, string> = target.sign ? { [SANDBOX_SIGNATURE_HEADER]: signSandboxPayload(WEBHOOK_SECRET, body, Date.now() / 1000) } : {};
      out.push({ label: `${label} → ${target.path}`, method: 'POST', path: target.path, headers: { ...target.headers(), 'content-type': contentType, ...sig, ...headers }, body });
    };

    const kinds: ((target: Target) => void)[] = [
      // Broken JSON: truncated, garbage, or trailing bytes.
      (target) => {
        const text = JSON.stringify(target.base());
        push(
          'broken JSON',
          target,
          pick([
            text.slice(0, 1 + int(text.length - 2)),
            text + pick(['}', ',', 'x', '"']),
            '{"',
            '{',
            'nul',
            "{'a':1}",
            '{"a":1,,}',
            '\u0000',
            randomBytes(1 + int(64)).toString('latin1'),
          ]),
        );
      },
      // Prototype pollution, alone or buried deep (the parser refuses __proto__, a DTO refuses unknown fields).
      (target) => {
        const base = JSON.stringify(target.base()).slice(1, -1);
        const poison = pick(['"__proto__":{"isAdmin":true}', '"constructor":{"prototype":{"isAdmin":true}}']);
        if (target.strict && random() < 0.5) return push('prototype pollution', target, `{${poison},${base}}`);
        const depth = 33 + int(3000);
        push('deep prototype pollution', target, `{${base},"x":${'['.repeat(depth)}{${poison}}${']'.repeat(depth)}}`);
      },
      // A body that is not an object.
      (target) => push('not an object', target, pick(['[]', '[{}]', '"text"', '42', 'null', 'true', '[' + JSON.stringify(target.base()) + ']'])),
      // Control characters (NUL included) in a text field, anywhere in it.
      (target) => {
        const textFields = Object.entries(target.fields).filter(([, kind]) => kind !== 'amount');
        const [field, kind] = pick(textFields);
        const body = target.base();
        const value = 'abc'.slice(0, int(4)) + controlChar(kind === 'multiline') + 'def'.slice(0, int(4));
        setField(body, field, value);
        push(`control char in ${field}`, target, JSON.stringify(body));
      },
      // Unpaired surrogates, written as JSON escapes.
      (target) => {
        const [field] = pick(Object.entries(target.fields).filter(([, kind]) => kind !== 'amount'));
        push(`lone surrogate in ${field}`, target, withRaw(target.base(), field, `"a${pick(['\\ud800', '\\udfff', '\\udbff x'])}"`));
      },
      // Amounts no one may pay.
      (target) => {
        const amountField = Object.entries(target.fields).find(([, kind]) => kind === 'amount')?.[0];
        if (!amountField) return push('nested 40 deep', target, withRaw(target.base(), pick(Object.keys(target.fields)), nest(33 + int(20))));
        // A provider may report 0 (it is the amount check, not the parser, that refuses it), so not for events.
        push(`bad amount in ${amountField}`, target, withRaw(target.base(), amountField, pick(target.strict ? badAmounts : badAmounts.filter((a) => a !== '0' && a !== '-0'))));
      },
      // JSON nested 33 to 60 levels in some field (or at the top).
      (target) => {
        const depth = 33 + int(28);
        if (random() < 0.2) return push('nested body', target, nest(depth));
        push('nested 40 deep', target, withRaw(target.base(), pick(Object.keys(target.fields)), nest(depth)));
      },
      // Wrong types, and (for DTO bodies) unknown fields and overlong strings.
      (target) => {
        if (!target.strict) {
          // A provider event checks its event, id, created_at, data.id and data.amount.
          if (random() < 0.2)
            return push(
              'created_at out of range',
              target,
              withRaw(
                target.base(),
                'created_at',
                pick(['"-100000-01-01T00:00:00Z"', '"+275760-09-13T00:00:00Z"', '"-004714-01-01T00:00:00Z"', '"0000-01-01T00:00:00Z"', '"+010000-01-01T00:00:00Z"']),
              ),
            );
          const field = pick(['event', 'id', 'created_at', 'data.id', 'data.amount', 'data']);
          return push(
            `wrong type in ${field}`,
            target,
            withRaw(
              target.base(),
              field,
              pick(
                ['123', 'true', '[]', '{}', '""', '"not-a-kind"'].filter(
                  (v) =>
                    !(field === 'data' && v === '{}') &&
                    !(field.endsWith('id') && v === '"not-a-kind"') &&
                    !(field === 'created_at' && v === '""') &&
                    !(field === 'data.amount' && v === '123'),
                ),
              ),
            ),
          );
        }
        const choice = int(3);
        const body = target.base();
        if (choice === 0) return push('unknown field', target, JSON.stringify({ ...body, [pick(['isAdmin', 'merchant_id', 'status', 'id', 'x'])]: 1 }));
        const field = pick(Object.keys(target.fields).filter((f) => f !== 'description' && f !== 'webhook_signing_secret' && f !== 'webhook_url' && f !== 'provider'));
        if (choice === 1)
          return push(`wrong type in ${field}`, target, withRaw(body, field, pick(wrongTypes.filter((v) => !(field === 'amount' && (v === '123' || v === '1.5'))))));
        if (target.fields[field] === 'amount') return push(`bad amount in ${field}`, target, withRaw(body, field, pick(badAmounts)));
        push(`overlong ${field}`, target, withRaw(body, field, JSON.stringify('x'.repeat(1025 + int(20_000)))));
      },
      // Over 64 KiB.
      (target) => push('oversized body', target, JSON.stringify({ ...target.base(), padding: 'x'.repeat(64 * 1024 + int(32 * 1024)) })),
      // Wrong or missing content types.
      (target) => {
        const type = pick([
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/xml',
          'application/jsonx',
          'json',
          '',
          ';;;',
          'application/octet-stream',
        ]);
        push(`content-type "${type}"`, target, JSON.stringify(target.base()), {}, type);
      },
      // Missing or garbage headers on an otherwise valid body (payments need an Idempotency-Key).
      (target) => {
        if (target.path.startsWith('/v1/')) {
          const key = pick(['', 'x'.repeat(256 + int(2000)), 'clé-ñ\u00ff', ' ']);
          const headers: Record<string, string> = { 'x-merchant-key': apiKey };
          if (key !== '') headers['idempotency-key'] = key;
          out.push({
            label: `idempotency key ${JSON.stringify(key.slice(0, 10))} → ${target.path}`,
            method: 'POST',
            path: target.path,
            headers: { ...headers, 'content-type': 'application/json' },
            body: Buffer.from(JSON.stringify(paymentBody())),
          });
          return;
        }
        if (target.sign) {
          const body = JSON.stringify(target.base());
          out.push({
            label: 'bad signature → webhooks',
            method: 'POST',
            path: target.path,
            headers: {
              'content-type': 'application/json',
              [SANDBOX_SIGNATURE_HEADER]: pick(['', 't=1,v1=00', 'garbage', `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`]),
            },
            body: Buffer.from(body),
          });
          return;
        }
        push('empty body', target, '', { 'content-length': '0' });
      },
      // Bad methods on every path.
      (target) => {
        // GET and DELETE are real operations on the admin paths (list merchants, read or end the session).
        const methods = target.path.startsWith('/admin/') ? ['PUT', 'PATCH', 'OPTIONS', 'PROPFIND', 'TRACE'] : ['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'TRACE', 'GET'];
        out.push({ label: `bad method → ${target.path}`, method: pick(methods), path: target.path, headers: { ...target.headers() } });
      },
      // Reads with hostile paths: bad percent-encoding, long ids, control characters, traversal.
      () => {
        const id = pick([
          '%E0%A4%A',
          '%',
          '%zz',
          '%00',
          '%0a%0d',
          'a'.repeat(129 + int(5000)),
          `${paymentId}%00`,
          '..%2f..%2fadmin',
          `pay_${'x'.repeat(24)}`,
          '%F0%9F%98',
          '%C0%AF',
          encodeURIComponent('\u0000\u0001'),
        ]);
        const [prefix, headers] = pick([
          ['/v1/payments/', { 'x-merchant-key': apiKey }],
          ['/v1/pix/', { 'x-merchant-key': apiKey }],
          ['/admin/api/merchants/', { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }],
          ['/admin/api/payments/', { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }],
          ['/webhooks/', {}],
        ] as [string, Record<string, string>][]);
        out.push({ label: `GET ${prefix}<hostile id>`, method: pick(['GET', 'GET', 'POST', 'PATCH']), path: `${prefix}${id}`, headers });
      },
      // Hostile queries on the admin list and very long paths.
      () => {
        const query = pick([
          'q=%00',
          'q=a%01b',
          'q=%7F',
          `q=${'x'.repeat(300)}`,
          'limit=-1',
          'limit=1e9',
          'limit=abc',
          'cursor=%E0%A4%A',
          'cursor=!!!',
          'q=a&q=b',
          'limit=1&limit=2',
          'unknown=1',
        ]);
        if (random() < 0.3) return out.push({ label: 'very long path', method: 'GET', path: `/v1/${'segment/'.repeat(200 + int(1500))}`, headers: { 'x-merchant-key': apiKey } });
        out.push({
          label: `GET /admin/api/merchants?${query.slice(0, 20)}`,
          method: 'GET',
          path: `/admin/api/merchants?${query}`,
          headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
        });
      },
      // Requests Node's HTTP parser refuses: broken request lines, bad header bytes, bad lengths, oversized URLs.
      (target) => {
        const body = JSON.stringify(target.base());
        const raw = pick([
          `POST ${target.path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${pick(['abc', '-1', '1 2', '99999999999999999999'])}\r\n\r\n${body}`,
          `POST ${target.path} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}`,
          `GET ${target.path} HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n`,
          `GET ${target.path} HTTP/1.1\r\nHost: x\r\nX-A: \u0000\r\n\r\n`,
          `GET /v1/${'a'.repeat(17_000 + int(10_000))} HTTP/1.1\r\nHost: x\r\n\r\n`,
          `GARBAGE\r\n\r\n`,
          `GET ${target.path} HTTP/9.9\r\nHost: x\r\n\r\n`,
          `POST ${target.path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n${body}\r\n0\r\n\r\n`,
        ]);
        out.push({ label: `unparseable HTTP → ${target.path}`, method: 'RAW', path: target.path, headers: {}, raw: Buffer.from(raw, 'latin1') });
      },
    ];

    while (out.length < TOTAL) pick(kinds)(pick(targets));
    return out.slice(0, TOTAL);
  }

  it('answers every one with a 4xx envelope and stores nothing', async () => {
    const all = cases();
    const before = await countRows(t);
    const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    let next = 0;
    const worker = async () => {
      while (next < all.length) {
        const item = all[next++]!;
        let answer: Answer;
        try {
          answer = item.raw ? await sendRaw(t.url, item.raw) : await send(t.url, item.method, item.path, item.headers, item.body, agent);
        } catch (error) {
          failures.push(`${item.label}: ${(error as Error).message}`);
          continue;
        }
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        const problem = envelopeProblem(answer);
        if (problem) failures.push(`${item.label}: ${problem}: ${answer.text.slice(0, 200)}`);
      }
    };
    try {
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    } finally {
      agent.destroy();
    }
    expect(failures.slice(0, 20)).toEqual([]);
    expect(Object.values(statuses).reduce((a, b) => a + b, 0)).toBe(TOTAL);
    // Every kind of refusal showed up, so the mix really is "of every kind".
    expect(Object.keys(statuses).map(Number).sort()).toEqual(expect.arrayContaining([400, 401, 404, 413, 415]));
    expect(await countRows(t)).toEqual(before);
  }, 60_000);
});
