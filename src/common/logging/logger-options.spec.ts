import { Writable } from 'node:stream';
import pino from 'pino';
import type { Options } from 'pino-http';
import type { AppConfig } from '../../config/app-config';
import { NEST_BOOT_CONTEXTS, pinoHttpParams, prettyLogs } from './logger-options';

const config = (isProduction: boolean) => ({ isProduction, logLevel: 'info' }) as AppConfig;

function collect(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { stream, lines };
}

describe('log format', () => {
  it('prints readable lines only in development on a terminal', () => {
    expect(prettyLogs({ isProduction: false }, true)).toBe(true);
    expect(prettyLogs({ isProduction: true }, true)).toBe(false);
    expect(prettyLogs({ isProduction: false }, false)).toBe(false);
  });

  it('writes JSON through a plain destination in production and to a pipe, pino-pretty on a development terminal', () => {
    expect(Array.isArray(pinoHttpParams(config(true), true))).toBe(false);
    expect(Array.isArray(pinoHttpParams(config(false), false))).toBe(false);
    const pretty = pinoHttpParams(config(false), true);
    expect(Array.isArray(pretty)).toBe(true);
    expect(typeof (pretty as [Options, { write: unknown }])[1].write).toBe('function');
  });

  it('redacts every JSON line, whoever logs it', () => {
    const options = pinoHttpParams(config(true), false) as pino.LoggerOptions;
    const { stream, lines } = collect();
    const logger = pino(options, stream);
    logger.info({ payer: { document: '123.456.789-09' }, key: 'mk_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345' }, 'payer 12345678909');
    logger.error({ err: Object.assign(new Error('insert failed'), { parameters: ['11222333000181'] }) }, 'db');
    const out = lines.join('');
    expect(lines).toHaveLength(2);
    for (const leaked of ['123.456.789-09', '12345678909', '11222333000181', 'AbCdEfGhIjKlMnOpQrStUvWxYz012345']) expect(out).not.toContain(leaked);
    expect(JSON.parse(lines[1]!).err).toMatchObject({ message: 'insert failed', parameters: '[redacted]' });
  });

  it('prints one readable, redacted line per entry on a development terminal', () => {
    const { stream, lines } = collect();
    const [options, pretty] = pinoHttpParams(config(false), true, stream) as [pino.LoggerOptions, pino.DestinationStream];
    const logger = pino(options, pretty);
    logger.info({ method: 'POST', route: '/v1/payments/create', status: 201, document: '12345678909' }, 'POST /v1/payments/create 201');
    const out = lines.join('').replace(/\x1b\[[0-9;]*m/g, '');
    expect(out.trimEnd().split('\n')).toHaveLength(1);
    expect(out).toContain('POST /v1/payments/create 201');
    expect(out).toContain('POST /v1/payments/create 201 method=POST status=201 document=[redacted]');
    expect(out).not.toMatch(/^\{"level"/);
    expect(out).not.toContain('12345678909');
  });

  it('prints an access line once: method, route, status and error code in the message, the rest as key=value, no JSON tail', () => {
    const { stream, lines } = collect();
    const [options, pretty] = pinoHttpParams(config(false), true, stream) as [pino.LoggerOptions, pino.DestinationStream];
    const logger = pino(options, pretty);
    const requestId = '3f2c1a4e-1234-4abc-8def-123456789012';
    logger.info(
      { method: 'GET', route: '/v1/payments/:id', status: 404, error_code: 'NOT_FOUND', duration_ms: 3.2, request_id: requestId, ip: '127.0.0.1', principal: 'mer_1' },
      'GET /v1/payments/:id 404 NOT_FOUND',
    );
    const out = lines.join('').replace(/\x1b\[[0-9;]*m/g, '');
    expect(out.trimEnd().split('\n')).toHaveLength(1);
    expect(out).toContain(`GET /v1/payments/:id 404 NOT_FOUND duration_ms=3.2 request_id=${requestId} ip=127.0.0.1 principal=mer_1`);
    expect(out.match(/\/v1\/payments\/:id/g)).toHaveLength(1);
    expect(out.match(/NOT_FOUND/g)).toHaveLength(1);
    expect(out).not.toContain('{');
  });

  it("prints a Nest logger's context in front, and an error's stack below its line", () => {
    const { stream, lines } = collect();
    const [options, pretty] = pinoHttpParams(config(false), true, stream) as [pino.LoggerOptions, pino.DestinationStream];
    const logger = pino(options, pretty);
    logger.warn({ context: 'DeliveryWorker', delivery_id: 'dlv_1', attempt: 2, error: 'HTTP 500', next_attempt_at: null }, 'Webhook failed');
    logger.error({ context: 'HTTP', err: new Error('boom') }, 'Unexpected error');
    const out = lines.join('').replace(/\x1b\[[0-9;]*m/g, '');
    expect(out).toContain('[DeliveryWorker] Webhook failed delivery_id=dlv_1 attempt=2 error="HTTP 500"');
    expect(out).not.toContain('next_attempt_at');
    logger.warn({ context: 'Payments', payment_id: 'pay_12345678', provider_code: 'REFUSED' }, 'Provider failed for payment pay_12345678');
    expect(lines.join('').replace(/\x1b\[[0-9;]*m/g, '')).toContain('[Payments] Provider failed for payment pay_12345678 provider_code=REFUSED\n');
    expect(out).toMatch(/\[HTTP\] Unexpected error err=boom\n\s+Error: boom\n\s+at /);
  });

  it("turns Nest's start-up lines (modules, routes) into debug lines, and leaves other info lines alone", () => {
    const run = (level: string) => {
      const { stream, lines } = collect();
      const logger = pino({ ...(pinoHttpParams(config(true), false) as pino.LoggerOptions), level }, stream);
      for (const context of NEST_BOOT_CONTEXTS) logger.info({ context }, `${context} says hello`);
      logger.info({ context: 'Payments' }, 'a line of ours');
      return lines.map((line) => JSON.parse(line) as { level: number; context: string });
    };
    expect(run('info')).toEqual([expect.objectContaining({ level: 30, context: 'Payments' })]);
    const debug = run('debug');
    expect(debug).toHaveLength(NEST_BOOT_CONTEXTS.size + 1);
    expect(debug.filter((line) => line.level === 20).map((line) => line.context)).toEqual([...NEST_BOOT_CONTEXTS]);
  });
});
