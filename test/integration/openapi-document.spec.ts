import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { createApp } from '../../src/app';
import { ERROR_TABLE, ErrorCode } from '../../src/common/errors/error-codes';
import { loadConfig } from '../../src/config/load-config';
import { LoginDto } from '../../src/dashboard/dto/login.dto';
import { CreateMerchantDto } from '../../src/merchants/dto/create-merchant.dto';
import { UpdateMerchantDto } from '../../src/merchants/dto/update-merchant.dto';
import { CreatePaymentDto, CreatePixPaymentDto } from '../../src/payments/dto/create-payment.dto';
import { CreateProviderAccountDto, UpdateProviderAccountDto } from '../../src/providers/provider-accounts/dto/provider-account.dto';
import { CreateRefundDto } from '../../src/payments/refunds/dto/create-refund.dto';
import { SimulateEventDto } from '../../src/payments/admin/dto/simulate-event.dto';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { apiDocument } = require('../../scripts/api-types.js') as {
  apiDocument: (create: typeof createApp, load: typeof loadConfig) => Promise<OpenApi>;
};

interface Schema {
  $ref?: string;
  required?: string[];
  properties?: Record<string, Schema>;
  oneOf?: Schema[];
  anyOf?: Schema[];
  example?: unknown;
}
interface Operation {
  operationId: string;
  summary?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean }[];
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: Schema; examples?: Record<string, { value: unknown }> }> }>;
}
interface OpenApi {
  tags: { name: string; description?: string }[];
  'x-tagGroups': { name: string; tags: string[] }[];
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, Record<string, unknown>> };
}

/** `record[key]`, failing the test by name when it is missing. */
function at<T>(record: Record<string, T> | undefined, key: string): T {
  const value = record?.[key];
  if (value === undefined) throw new Error(`${key} is missing from the document`);
  return value;
}

/** The document as GET /docs/json serves it, read the way `npm run api:types` reads it. */
describe('The OpenAPI document (/docs/json)', () => {
  let document: OpenApi;
  let operations: { method: string; path: string; operation: Operation }[];
  beforeAll(async () => {
    document = await apiDocument(createApp, loadConfig);
    operations = Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ method, path, operation })));
  });

  it('declares credentials as security schemes only, never as parameters Swagger UI would ask for again', () => {
    const credentialParameters = operations.flatMap(({ method, path, operation }) =>
      (operation.parameters ?? []).filter((p) => p.in === 'header' && /^(x-merchant-key|authorization)$/i.test(p.name)).map((p) => `${method} ${path}: ${p.name}`),
    );
    expect(credentialParameters).toEqual([]);
    const merchantOperations = operations.filter(({ path }) => path.startsWith('/v1/'));
    expect(merchantOperations.length).toBeGreaterThan(5);
    for (const { operation } of merchantOperations) expect(operation.security).toEqual([{ merchantKey: [] }]);
    expect(document.components.securitySchemes.merchantKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Merchant-Key' });
  });

  it('describes the admin and metrics tokens as opaque bearer tokens, not JWTs', () => {
    const { adminToken, metricsToken } = document.components.securitySchemes;
    expect(adminToken).toMatchObject({ type: 'http', scheme: 'bearer', description: expect.stringContaining('adm_') });
    expect(metricsToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(JSON.stringify(document)).not.toMatch(/bearerFormat/);
  });

  it('gives every error status an example of exactly each code it documents, each its own', () => {
    let checked = 0;
    for (const { method, path, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        const documented = [...response.description.matchAll(/`([A-Z_]+)`/g)].map((match) => match[1]).sort();
        const examples = Object.values(response.content?.['application/json']?.examples ?? {}).map(
          (example) => example.value as { success: boolean; error: { code: ErrorCode }; provider: string },
        );
        const where = `${method} ${path} ${status}`;
        expect({ where, codes: examples.map((example) => example.error.code).sort() }).toEqual({ where, codes: documented });
        for (const example of examples) {
          // The table's status, or 422 for a VALIDATION_ERROR about the merchant's set-up (AppError's one override).
          const allowed = example.error.code === ErrorCode.VALIDATION_ERROR && Number(status) === 422 ? 422 : ERROR_TABLE[example.error.code].status;
          expect({ where, status: allowed }).toEqual({ where, status: Number(status) });
          expect(example).toMatchObject({ success: false, provider: expect.stringMatching(/^[a-z]/) });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    // Swagger UI fills a free-form object without an example with `additionalProp1`.
    const freeForm: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const schema = node as { additionalProperties?: unknown; example?: unknown };
      if (schema.additionalProperties !== undefined && schema.additionalProperties !== false && schema.example === undefined) freeForm.push(where);
      for (const [key, value] of Object.entries(node)) walk(value, `${where}/${key}`);
    };
    walk(document, '');
    expect(freeForm).toEqual([]);
  });

  it('shows each code with its own details: the fields of a VALIDATION_ERROR, the upstream status of a provider failure', () => {
    const create = at(at(document.paths, '/v1/payments/create'), 'post');
    const example = (status: string, code: string) =>
      (at(at(at(create.responses, status).content, 'application/json').examples, code).value as { error: Record<string, unknown> }).error;
    expect(example('400', 'VALIDATION_ERROR')).toMatchObject({ details: { fields: [{ field: expect.any(String), message: expect.any(String) }] } });
    expect(example('502', 'PAYMENT_CREATE_FAILED')).toMatchObject({ upstream_status: expect.any(Number) });
    expect(example('401', 'MISSING_MERCHANT_KEY')).not.toHaveProperty('details');
    const details = at(at(document.components.schemas, 'ApiErrorBody').properties, 'details');
    expect(details.oneOf?.map((schema) => schema.$ref)).toEqual(expect.arrayContaining(['#/components/schemas/ApiValidationDetails', '#/components/schemas/ApiProviderDetails']));
    expect(at(document.components.schemas, 'ApiValidationDetails').required).toEqual(['fields']);
  });

  it('marks a body field required exactly when the validation requires it', () => {
    const dtos = [
      CreatePaymentDto,
      CreatePixPaymentDto,
      CreateRefundDto,
      CreateMerchantDto,
      UpdateMerchantDto,
      CreateProviderAccountDto,
      UpdateProviderAccountDto,
      SimulateEventDto,
      LoginDto,
    ];
    const storage = getMetadataStorage();
    for (const dto of dtos) {
      const validations = storage.getTargetValidationMetadatas(dto, '', true, false);
      const properties = [...new Set(validations.map((v) => v.propertyName))];
      const optional = new Set(validations.filter((v) => v.type === ValidationTypes.CONDITIONAL_VALIDATION).map((v) => v.propertyName));
      const schema = at(document.components.schemas, dto.name);
      expect({ dto: dto.name, required: [...(schema.required ?? [])].sort() }).toEqual({ dto: dto.name, required: properties.filter((p) => !optional.has(p)).sort() });
    }
    expect(at(document.components.schemas, 'CreatePaymentDto').required?.sort()).toEqual(['amount', 'currency', 'externalId', 'recipientDocument', 'recipientName']);
  });

  it("tags operations by resource, the merchant's first, health last, each tag described and grouped by who calls", () => {
    expect(document.tags.map((tag) => tag.name)).toEqual([
      'payments',
      'refunds',
      'recurrences',
      'api-keys',
      'provider-callbacks',
      'merchants',
      'provider-accounts',
      'providers',
      'admin-payments',
      'admin-recurrences',
      'deliveries',
      'invariant-checks',
      'session',
      'dashboard',
      'metrics',
      'health',
      'webhooks',
    ]);
    for (const tag of document.tags) expect(tag.description).toEqual(expect.any(String));
    const firstSeen = [...new Set(operations.map(({ operation }) => operation.tags![0]))];
    // `webhooks` tags the events the gateway sends (the document's `webhooks`), not paths.
    expect(firstSeen).toEqual(document.tags.map((tag) => tag.name).filter((name) => name !== 'webhooks'));
    expect(operations[0]).toMatchObject({ method: 'post', path: '/v1/payments/create' });
    expect(document['x-tagGroups'].flatMap((group) => group.tags)).toEqual(document.tags.map((tag) => tag.name));
  });

  it('names operations as an SDK would, each once', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const merchant = Object.fromEntries(
      operations.filter(({ path }) => path.startsWith('/v1/')).map(({ method, path, operation }) => [`${method} ${path}`, operation.operationId]),
    );
    expect(merchant).toMatchObject({
      'post /v1/payments/create': 'createPayment',
      'get /v1/payments/{id}': 'getPayment',
      'get /v1/payments': 'listPayments',
      'post /v1/payments/{id}/refunds': 'refundPayment',
      'post /v1/payments/{id}/cancel': 'cancelPayment',
      'post /v1/recurrences': 'createRecurrence',
      'post /v1/recurrences/{id}/charges': 'createRecurringCharge',
    });
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]+$/);
  });

  it('declares who may call every operation: the dashboard session with its CSRF token on admin changes, none on callbacks and health', () => {
    for (const { method, path, operation } of operations) {
      const where = `${method} ${path}`;
      expect({ where, declared: Array.isArray(operation.security) }).toEqual({ where, declared: true });
      if (path.startsWith('/admin/api/') && path !== '/admin/api/session') {
        expect({ where, security: operation.security }).toEqual({
          where,
          security: method === 'get' ? [{ adminToken: [] }, { adminSession: [] }] : [{ adminToken: [] }, { adminSession: [], csrfToken: [] }],
        });
      }
      if (/^\/(webhooks|health)/.test(path)) expect({ where, security: operation.security }).toEqual({ where, security: [] });
    }
    expect(document.components.securitySchemes.adminSession).toMatchObject({ type: 'apiKey', in: 'cookie' });
    expect(document.servers).toEqual([expect.objectContaining({ url: expect.stringMatching(/^https?:\/\//) })]);
  });

  it('gives the merchant API an example of each success answer, a payment coherent with its status', () => {
    for (const { method, path, operation } of operations.filter(({ path }) => path.startsWith('/v1/'))) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) >= 400) continue;
        expect({ where: `${method} ${path} ${status}`, example: response.content?.['application/json']?.schema?.example }).toEqual({
          where: `${method} ${path} ${status}`,
          example: expect.objectContaining({ success: true, data: expect.anything() }),
        });
      }
    }
    const created = at(at(document.paths, '/v1/payments/create'), 'post').responses['201']?.content?.['application/json']?.schema?.example as { data: Record<string, unknown> };
    expect(created.data).toMatchObject({ status: 'pending', paidAt: null, paidAmount: null, payer: null });
    const read = at(at(document.paths, '/v1/payments/{id}'), 'get').responses['200']?.content?.['application/json']?.schema?.example as { data: Record<string, unknown> };
    expect(read.data).toMatchObject({ status: 'paid', paidAt: expect.any(String), paidAmount: read.data.amount });
  });

  it('types the bodies providers post to the intake routes', () => {
    const schemaOf = (path: string) => at(at(document.paths, path), 'post').requestBody?.content['application/json']?.schema;
    expect(schemaOf('/webhooks/{provider}')?.$ref).toBe('#/components/schemas/SandboxEventBody');
    expect(schemaOf('/webhooks/{provider}/{account}/pix')?.anyOf?.map((s) => s.$ref)).toEqual([
      '#/components/schemas/PixCallbackBody',
      '#/components/schemas/MercadoPagoNotificationBody',
      '#/components/schemas/SandboxEventBody',
    ]);
    expect(at(document.components.schemas, 'SandboxEventBody').required).toEqual(['event', 'id', 'data']);
  });
});
