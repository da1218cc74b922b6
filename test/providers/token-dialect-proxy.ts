import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { RECURRING_SCOPES, type TokenRequestStyle } from '../../src/providers/pix-api/profile';
import type { TestPki } from '../../src/testing/certificates';
import type { PixApiPsp } from '../fakes/pix-api-psp';

/**
 * A bank's token endpoint in front of the fake PSP, for the dialects the fake does not speak (a
 * JSON body, the client_id alone, grant_type in the query). It requires the client certificate,
 * checks the request strictly against `style` (recording anything else as a violation, answered
 * 400), and passes a conforming one on to the fake's own endpoint in the standard's form, so the
 * token the adapter gets is one the fake's API takes.
 */
export interface TokenDialectProxy {
  readonly url: string;
  readonly violations: string[];
  close(): Promise<void>;
}

/** `scopes`: what the profile asks for (flows/token.ts, scopesOf), when it declares more than its style's own. */
export async function startTokenDialectProxy(
  psp: PixApiPsp,
  pki: TestPki,
  style: TokenRequestStyle,
  client: { id: string; secret: string | null },
  scopes?: readonly string[] | null,
): Promise<TokenDialectProxy> {
  const violations: string[] = [];

  const check = (method: string, url: URL, headers: Record<string, string | string[] | undefined>, raw: string, socket: TLSSocket): string[] => {
    const problems: string[] = [];
    if (method !== 'POST') problems.push(`method ${method}, not POST`);
    if (!socket.getPeerCertificate()?.subject) problems.push('no client certificate');
    const contentType = String(headers['content-type'] ?? '');
    let fields: Record<string, unknown> = {};
    if (style.encoding === 'json') {
      if (!/^application\/json\b/.test(contentType)) problems.push(`content-type ${contentType}, not application/json`);
      try {
        fields = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        problems.push('the body is not JSON');
      }
    } else {
      if (!/^application\/x-www-form-urlencoded\b/.test(contentType)) problems.push(`content-type ${contentType}, not a form`);
      fields = Object.fromEntries(new URLSearchParams(raw));
    }
    const grantType = style.grantTypeIn === 'query' ? url.searchParams.get('grant_type') : fields.grant_type;
    if (grantType !== 'client_credentials') problems.push(`grant_type not client_credentials in the ${style.grantTypeIn}`);
    if (style.grantTypeIn === 'query' && 'grant_type' in fields) problems.push('grant_type in the body too');
    if (style.scopes === null && 'scope' in fields) problems.push('a scope the PSP does not take');
    // A profile that declares Pix Automático asks for its scopes after its own (flows/token.ts, scopesOf).
    const asked =
      style.scopes === null
        ? []
        : [style.scopes.join(' '), [...style.scopes, ...RECURRING_SCOPES.filter((scope) => !style.scopes!.includes(scope))].join(' '), ...(scopes ? [scopes.join(' ')] : [])];
    if (style.scopes !== null && !asked.includes(String(fields.scope))) problems.push(`scope ${String(fields.scope)}`);
    const authorization = headers.authorization;
    if (style.clientAuth === 'basic') {
      const expected = `Basic ${Buffer.from(`${client.id}:${client.secret ?? ''}`).toString('base64')}`;
      if (authorization !== expected) problems.push('no or wrong Basic client authentication');
      if ('client_id' in fields || 'client_secret' in fields) problems.push('client credentials in the body besides Basic');
    } else {
      if (authorization !== undefined) problems.push('an Authorization header the PSP does not take');
      if (fields.client_id !== client.id) problems.push('no or wrong client_id in the body');
      if (style.clientAuth === 'body' && fields.client_secret !== client.secret) problems.push('no or wrong client_secret in the body');
      if (style.clientAuth === 'client-id' && 'client_secret' in fields) problems.push('a client_secret, which this PSP does not take');
    }
    return problems;
  };

  const forward = (scope: string | undefined): Promise<{ status: number; contentType: string; body: string }> =>
    new Promise((resolve, reject) => {
      const form = new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) }).toString();
      const req = request(
        psp.tokenUrl,
        {
          method: 'POST',
          agent: false,
          ca: pki.ca.cert,
          cert: pki.client.cert,
          key: pki.client.key,
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Basic ${Buffer.from(`${psp.clientId}:${psp.clientSecret}`).toString('base64')}`,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 502, contentType: String(res.headers['content-type'] ?? 'application/json'), body: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(form);
    });

  const server: Server = createServer({ key: pki.server.key, cert: pki.server.cert, ca: [pki.ca.cert], requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'https://127.0.0.1');
      const problems = check(req.method ?? 'GET', url, req.headers, raw, req.socket as TLSSocket);
      if (problems.length) {
        violations.push(...problems.map((problem) => `token request: ${problem}`));
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_request', error_description: problems.join('; ') }));
        return;
      }
      // The scopes asked for, passed on as asked (the check above allows only the profile's, with Pix Automático's or not).
      const asked = style.encoding === 'json' ? (JSON.parse(raw) as { scope?: string }).scope : (new URLSearchParams(raw).get('scope') ?? undefined);
      const scope = style.scopes === null ? undefined : asked;
      forward(scope).then(
        (answer) => res.writeHead(answer.status, { 'content-type': answer.contentType }).end(answer.body),
        (error: Error) => res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'bad_gateway', error_description: error.message })),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/token`,
    violations,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
