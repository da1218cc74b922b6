import Ajv2020, { type Options, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** The part of an OpenAPI 3.1 document the events are in: `webhooks` (src/api-webhooks.ts) and the schemas they name. */
export interface EventsDocument {
  webhooks?: Record<string, { post?: { requestBody?: { content?: Record<string, { schema?: object; example?: unknown }> } } }>;
  components?: { schemas?: Record<string, object> };
}

/**
 * The Ajv every check of the document uses: JSON Schema 2020-12, as OpenAPI 3.1 reads it, with
 * formats. `multipleOfPrecision`: an amount is a multiple of 0.01, which 0.07 / 0.01 in binary
 * floating point is not (docs/api.md, "Amounts and multipleOf").
 */
export function documentAjv(options: Options = {}): Ajv2020 {
  // validateSchema: false: the document's schemas are checked once, by the lint
  // (test/integration/openapi-lint.spec.ts); meta-validating them again in every validator's own Ajv
  // compiled the 2020-12 meta-schema each time, which was most of the check's cost.
  return addFormats(new Ajv2020({ ...options, strict: false, allErrors: true, multipleOfPrecision: 8, validateSchema: false }));
}

/**
 * The bodies of the events the gateway sends merchants, checked against the document's `webhooks`:
 * each body against the schema of the webhook named by its `event`, with Ajv's JSON Schema 2020-12
 * as OpenAPI 3.1 reads it. `exact` also refuses a field the schema does not name (each object schema
 * without `additionalProperties` is closed): the document keeps them open for merchants, so that a
 * field added later breaks no client, but every field the gateway sends today must be documented.
 */
export class EventSchemas {
  private readonly ajv = documentAjv();
  private readonly validators = new Map<string, ValidateFunction | null>();
  private readonly components: object;

  constructor(
    private readonly document: EventsDocument,
    { exact }: { exact: boolean },
  ) {
    this.components = { schemas: exact ? closeObjects(structuredClone(document.components?.schemas ?? {})) : (document.components?.schemas ?? {}) };
  }

  /** The event types the document has a webhook for. */
  types(): string[] {
    return Object.keys(this.document.webhooks ?? {});
  }

  /** The JSON body schema of `type`'s webhook, as the document gives it. */
  bodyOf(type: string): { schema?: object; example?: unknown } | undefined {
    return this.document.webhooks?.[type]?.post?.requestBody?.content?.['application/json'];
  }

  /** Why `body` is not an event the document describes, or null when it is one. */
  problem(body: unknown): string | null {
    const event = (body as { event?: unknown } | null | undefined)?.event;
    if (typeof event !== 'string') return `a body without an event type: ${JSON.stringify(body)?.slice(0, 200)}`;
    const validate = this.validator(event);
    if (!validate) return `no webhook in the document for the event ${event}`;
    return validate(body) ? null : `${event}: ${summarize(validate.errors ?? [])}`;
  }

  private validator(type: string): ValidateFunction | null {
    if (!this.validators.has(type)) {
      const schema = this.bodyOf(type)?.schema;
      // The schema is a $ref into components: compiled with them beside it, as in the document.
      this.validators.set(type, schema ? this.ajv.compile({ ...schema, components: this.components }) : null);
    }
    return this.validators.get(type)!;
  }
}

function closeObjects(schemas: Record<string, object>): Record<string, object> {
  const close = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) close(item);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const schema = node as Record<string, unknown>;
    if (schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'example' || key === 'examples' || key === 'enum' || key === 'const' || key === 'default') continue;
      if (key === 'properties') for (const property of Object.values(value as object)) close(property);
      else close(value);
    }
  };
  for (const schema of Object.values(schemas)) close(schema);
  return schemas;
}

/** The first few of a validation's errors, on one line. */
export function summarize(errors: { instancePath?: string; message?: string; params?: unknown }[]): string {
  return errors
    .slice(0, 4)
    .map((error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params ?? {})}`)
    .join('; ');
}
