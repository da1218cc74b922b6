import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse as parseYaml } from 'yaml';

/*
 * The Central Bank's Pix API OpenAPI document (bcb-pix-api-openapi.yaml beside this file, kept
 * verbatim), its errata applied in this one place, and a validator of requests, responses and
 * callbacks against it.
 *
 * Why ajv + ajv-formats rather than an OpenAPI request validator: the npm registry's maintained,
 * framework-agnostic one (openapi-backend) finds operations by operationId, which this document
 * has none of; it ignores `format` unless its Ajv is customised, passes responses whose status the
 * document does not list, does not look at callbacks, and brings some forty packages.
 * express-openapi-validator is Express middleware, and openapi-request-validator /
 * openapi-response-validator are two more wrappers around the same Ajv. Ajv itself (already in the
 * lockfile through Fastify) compiles the document's schemas where they stand, so `$ref`s to
 * components resolve as written and OpenAPI 3.0's `nullable` is a keyword it knows; what is left
 * to write here is routing, parameters, and status and media type matching.
 */

/** The parts of an OpenAPI 3.0 document this file reads; everything else passes through. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type OpenApiDocument = Record<string, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Node = Record<string, any>;

const DOCUMENT_PATH = join(__dirname, 'bcb-pix-api-openapi.yaml');
const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'] as const;

let officialText: string | undefined;

/** The official document as published, parsed afresh (callers may change their copy). */
export function officialDocument(): OpenApiDocument {
  officialText ??= readFileSync(DOCUMENT_PATH, 'utf8');
  return parseYaml(officialText) as OpenApiDocument;
}

// ---------------------------------------------------------------------------------------------
// Errata. Each takes the parsed document, corrects it in place and returns how many places it
// changed, so a spec can show that every one of them still finds something to fix.
// ---------------------------------------------------------------------------------------------

/** Calls `visit` on every object in the document (schemas, parameters, examples alike). */
function walk(node: unknown, visit: (object: Node, key: string | undefined, parent: Node | undefined) => void, key?: string, parent?: Node): void {
  if (Array.isArray(node)) {
    node.forEach((item) => walk(item, visit, undefined, parent));
    return;
  }
  if (node === null || typeof node !== 'object') return;
  visit(node, key, parent);
  for (const [childKey, child] of Object.entries(node)) walk(child, visit, childKey, node);
}

/** Every schema object that has a `pattern` (`example`/`examples` values are left alone). */
function forEachPattern(document: OpenApiDocument, fix: (schema: Node) => boolean): number {
  let changed = 0;
  const visit = (node: unknown, inExample: boolean): void => {
    if (Array.isArray(node)) return node.forEach((item) => visit(item, inExample));
    if (node === null || typeof node !== 'object') return;
    const object = node as Node;
    if (!inExample && typeof object.pattern === 'string' && fix(object)) changed++;
    for (const [key, child] of Object.entries(object)) visit(child, inExample || key === 'example' || key === 'examples');
  };
  visit(document, false);
  return changed;
}

/**
 * The CPF fields (and `codMun`) write their pattern as a JavaScript regex literal, `"/^\d{11}$/"`.
 * A JSON Schema pattern is the regex's source, so as written it demands the slashes themselves
 * and no real CPF can match. The slashes go.
 */
export function unwrapRegexLiteralPatterns(document: OpenApiDocument): number {
  return forEachPattern(document, (schema) => {
    const literal = /^\/(.*)\/$/s.exec(schema.pattern as string);
    if (!literal) return false;
    schema.pattern = literal[1];
    return true;
  });
}

/**
 * JSON Schema patterns match anywhere in the value, but the document's are meant for the whole of
 * it (money is `\d{1,10}\.\d{2}`, "1.00" or "123.99"; a txid has 26 to 35 characters): as written
 * "1.000" passes as money and a 40-character txid as a txid. Each unanchored pattern is anchored.
 */
export function anchorPatterns(document: OpenApiDocument): number {
  return forEachPattern(document, (schema) => {
    const pattern = schema.pattern as string;
    const starts = pattern.startsWith('^');
    const ends = pattern.endsWith('$') && !pattern.endsWith('\\$');
    if (starts && ends) return false;
    const core = pattern.slice(starts ? 1 : 0, ends ? -1 : undefined);
    schema.pattern = `^(?:${core})$`;
    return true;
  });
}

/**
 * `PixConsultados` (the answer of GET /pix) requires `cobs`, a property it does not define: its
 * list is `pix`. So every correct answer failed and a wrong one passed. It now requires `pix`.
 */
export function pixConsultadosRequiresPix(document: OpenApiDocument): number {
  const schema = document.components?.schemas?.PixConsultados as Node | undefined;
  if (!Array.isArray(schema?.required) || !schema.required.includes('cobs')) return 0;
  schema.required = schema.required.map((name: string) => (name === 'cobs' ? 'pix' : name));
  return 1;
}

/**
 * The items of `CobsConsultadas` (GET /cob), and in the same words those of `CobsVConsultadas`
 * (GET /cobv), require `idCob`, a property no schema of the document defines and no example has,
 * so no list of charges could pass. It is dropped from their required lists.
 */
export function listedChargesDoNotRequireIdCob(document: OpenApiDocument): number {
  let changed = 0;
  for (const name of ['CobsConsultadas', 'CobsVConsultadas']) {
    for (const part of (document.components?.schemas?.[name]?.properties?.cobs?.items?.allOf ?? []) as Node[]) {
      if (Array.isArray(part.required) && part.required.includes('idCob')) {
        part.required = part.required.filter((required: string) => required !== 'idCob');
        changed++;
      }
    }
  }
  return changed;
}

/**
 * `location` (of a charge and of its `loc`) is declared `format: uri`, yet it is what the BR Code
 * carries, without a scheme: every example is like "pix.example.com/qr/v2/2353c790…", which is
 * not a URI. The format goes; the type and maxLength stay.
 */
export function locationIsNotAUri(document: OpenApiDocument): number {
  let changed = 0;
  walk(document, (object, key, parent) => {
    if (key === 'location' && parent !== undefined && object.type === 'string' && object.format === 'uri') {
      delete object.format;
      changed++;
    }
  });
  return changed;
}

/**
 * `RecNotification` (the body of the recurrences' callback) requires `["idRec","status",atualizacao"]`:
 * a quote is missing, so YAML reads the third name as `atualizacao"` (with the quote), which no
 * notification has; the document's own example (recWebhookNotification1) carries `atualizacao`.
 * The name is read without the stray quote.
 */
export function recNotificationRequiresAtualizacao(document: OpenApiDocument): number {
  const schema = document.components?.schemas?.RecNotification as Node | undefined;
  if (!Array.isArray(schema?.required) || !schema.required.includes('atualizacao"')) return 0;
  schema.required = schema.required.map((name: string) => (name === 'atualizacao"' ? 'atualizacao' : name));
  return 1;
}

/**
 * `RecBase`, shared by what the receiver sends (`RecSolicitada`, POST /rec) and what the PSP
 * answers, requires `["idRec", "calendario","vinculo","retentativa"]`. `retentativa` is defined
 * nowhere (the field is `politicaRetentativa`, which `RecConfiguracao` requires), and `idRec` is
 * the PSP's to make: the document's examples of POST /rec (recBody1, recBody2) have neither, so no
 * recurrence could be created. Both names go; the PSP's answers still carry `idRec`.
 */
export function recBaseRequiresWhatItDefines(document: OpenApiDocument): number {
  const schema = document.components?.schemas?.RecBase as Node | undefined;
  if (!Array.isArray(schema?.required) || !schema.required.some((name: string) => name === 'idRec' || name === 'retentativa')) return 0;
  schema.required = schema.required.filter((name: string) => name !== 'idRec' && name !== 'retentativa');
  return 1;
}

/**
 * `DadosPagadorRec`, part of every recurrence read (`RecCompleta`), requires `ispbParticipante`
 * beside its only property, `pagador`, where the field is: the examples have it inside
 * (recResponse3: `pagador: {codMun, cpf, ispbParticipante}`), and a recurrence no payer has
 * authorized yet has no `pagador` at all (recResponse6). The requirement moves into `pagador`.
 */
export function payerIspbInsidePagador(document: OpenApiDocument): number {
  const schema = document.components?.schemas?.DadosPagadorRec as Node | undefined;
  if (!Array.isArray(schema?.required) || !schema.required.includes('ispbParticipante') || !schema.properties?.pagador) return 0;
  schema.required = schema.required.filter((name: string) => name !== 'ispbParticipante');
  schema.properties.pagador.required = ['ispbParticipante'];
  return 1;
}

/**
 * An authorization request names properties it never defines as required: `SolicRecBase` (the
 * body of POST /solicrec) requires `pagador`, which solicRecBody1 does not have (the payer is the
 * `destinatario`), and `SolicRecCompleta` (its answer) requires `rec`, which solicRecResponse1 does
 * not have (the recurrence is its `recPayload`). Both go.
 */
export function authorizationRequestsRequireWhatTheyDefine(document: OpenApiDocument): number {
  let changed = 0;
  for (const [name, undefinedName] of [
    ['SolicRecBase', 'pagador'],
    ['SolicRecCompleta', 'rec'],
  ] as const) {
    const schema = document.components?.schemas?.[name] as Node | undefined;
    if (Array.isArray(schema?.required) && schema.required.includes(undefinedName)) {
      schema.required = schema.required.filter((required: string) => required !== undefinedName);
      changed++;
    }
  }
  return changed;
}

/**
 * A recurrence's and a recurring charge's `encerramento` is `oneOf` a `rejeicao` branch and a
 * `cancelamento` branch, neither requiring its one property: any object matches both, so "exactly
 * one" never holds and every ended recurrence or charge fails, the document's own examples
 * included (recResponse5 and cobRResponse4, `encerramento: {cancelamento: {…}}`). Each branch
 * requires its property.
 */
export function endingBranchesRequireTheirProperty(document: OpenApiDocument): number {
  let changed = 0;
  const schemas = document.components?.schemas ?? {};
  for (const owner of [schemas.RecEncerramento, schemas.CobRAtualizacao] as (Node | undefined)[]) {
    for (const branch of (owner?.properties?.encerramento?.oneOf ?? []) as Node[]) {
      const names = Object.keys(branch.properties ?? {});
      if (names.length === 1 && !branch.required) {
        branch.required = names;
        changed++;
      }
    }
  }
  return changed;
}

/**
 * A due-date charge's `valor.desconto` is `oneOf` a fixed-dates branch (`descontoDataFixa`) and a
 * per-day branch (`valorPerc`, required), but the first requires nothing: a per-day discount
 * (`{modalidade: 3, valorPerc}`) matches both, so "exactly one" never holds and no charge with an
 * early-payment discount (modalidades 3 to 6) could be made. The first branch requires its
 * `descontoDataFixa`, as the document's violations of `PUT /cobv` say modalidades 1 and 2 must have it.
 */
export function fixedDateDiscountsRequireTheirDates(document: OpenApiDocument): number {
  let changed = 0;
  walk(document, (object, key) => {
    if (key !== 'desconto' || !Array.isArray(object.oneOf)) return;
    const [fixed] = object.oneOf as Node[];
    if (fixed?.properties?.descontoDataFixa && !fixed.required) {
      fixed.required = ['descontoDataFixa'];
      changed++;
    }
  });
  return changed;
}

/**
 * `DadosRecebedor`, part of every due-date charge the PSP answers (`CobVGerada`), requires
 * `logradouro`, `cidade`, `uf` and `cep` of the charge itself, where they belong to its `recebedor`
 * (whose own `allOf` requires them already): the document's example (cobResponse4) has them there
 * only, so no answer could pass. The charge-level requirement goes.
 */
export function receiverAddressInsideRecebedor(document: OpenApiDocument): number {
  const schema = document.components?.schemas?.DadosRecebedor as Node | undefined;
  if (!Array.isArray(schema?.required) || !schema.properties?.recebedor) return 0;
  delete schema.required;
  return 1;
}

/**
 * A change of a due-date charge (`CobVRevisada`, `PATCH /cobv/{txid}`) removes a fine, interest,
 * discount or abatement by giving it as null, and leaves it as it is by leaving it out (the
 * standard's maintainers, https://github.com/bacen/pix-api/issues/281 and https://github.com/bacen/pix-api/issues/108: "informa-se com
 * null"); the schema, shared with the create, allows no null, so no term could ever be removed.
 * In a revision those four members of `valor` may be null.
 */
export function revisedTermsMayBeNull(document: OpenApiDocument): number {
  const schemas = document.components?.schemas ?? {};
  const revised = schemas.CobVRevisada as Node | undefined;
  const part = ((revised?.allOf ?? []) as Node[]).find((member) => member.properties?.valor?.$ref === '#/components/schemas/CobVValor');
  if (!part || !schemas.CobVValor) return 0;
  const valor = structuredClone(schemas.CobVValor) as Node;
  for (const name of ['multa', 'juros', 'desconto', 'abatimento']) {
    if (valor.properties?.[name]) valor.properties[name] = { anyOf: [{ enum: [null] }, valor.properties[name]] };
  }
  part.properties.valor = valor;
  return 1;
}

/**
 * `RecConsultaInvalida` is a 400 of `GET /rec` and `GET /rec/{idRec}` (the document's list of
 * errors names both, with its violations of each: a txid of `GET /rec/{idRec}?txid=` that is not
 * of a charge the recurrence's journey takes, or an immediate charge other than the one it names),
 * yet neither operation lists a 400, so no such refusal could pass. Each gets the 400 its siblings
 * have (`Problema` as `application/problem+json`).
 */
export function recReadsMayBeRefused(document: OpenApiDocument): number {
  let changed = 0;
  for (const template of ['/rec', '/rec/{idRec}']) {
    const responses = document.paths?.[template]?.get?.responses as Node | undefined;
    if (!responses || responses['400']) continue;
    responses['400'] = {
      description: 'Consulta com parâmetros inválidos (RecConsultaInvalida).',
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problema' } } },
    };
    changed++;
  }
  return changed;
}

export interface Erratum {
  name: string;
  fix: (document: OpenApiDocument) => number;
}

/** In the order they are applied (a regex literal is unwrapped before it is anchored). */
export const ERRATA: readonly Erratum[] = [
  { name: 'unwrapRegexLiteralPatterns', fix: unwrapRegexLiteralPatterns },
  { name: 'anchorPatterns', fix: anchorPatterns },
  { name: 'pixConsultadosRequiresPix', fix: pixConsultadosRequiresPix },
  { name: 'listedChargesDoNotRequireIdCob', fix: listedChargesDoNotRequireIdCob },
  { name: 'locationIsNotAUri', fix: locationIsNotAUri },
  { name: 'recNotificationRequiresAtualizacao', fix: recNotificationRequiresAtualizacao },
  { name: 'recBaseRequiresWhatItDefines', fix: recBaseRequiresWhatItDefines },
  { name: 'payerIspbInsidePagador', fix: payerIspbInsidePagador },
  { name: 'authorizationRequestsRequireWhatTheyDefine', fix: authorizationRequestsRequireWhatTheyDefine },
  { name: 'endingBranchesRequireTheirProperty', fix: endingBranchesRequireTheirProperty },
  // Before revisedTermsMayBeNull, which copies the corrected `CobVValor` into revisions.
  { name: 'fixedDateDiscountsRequireTheirDates', fix: fixedDateDiscountsRequireTheirDates },
  { name: 'receiverAddressInsideRecebedor', fix: receiverAddressInsideRecebedor },
  { name: 'revisedTermsMayBeNull', fix: revisedTermsMayBeNull },
  { name: 'recReadsMayBeRefused', fix: recReadsMayBeRefused },
];

/** The document with every erratum applied; `except` leaves some out (to show each is needed). */
export function patchedDocument(except: readonly string[] = []): OpenApiDocument {
  const document = officialDocument();
  for (const erratum of ERRATA) if (!except.includes(erratum.name)) erratum.fix(document);
  return document;
}

// ---------------------------------------------------------------------------------------------
// The validator.
// ---------------------------------------------------------------------------------------------

export type Query = Record<string, string | string[] | undefined>;
export type Headers = Record<string, string | string[] | undefined>;

export interface OperationMatch {
  method: string;
  /** The document's path template, e.g. `/cob/{txid}`. */
  template: string;
  pathParams: Record<string, string>;
  operation: Node;
  /** The OAuth2 scopes the operation asks for (its `security`), if any. */
  scopes: string[];
}

interface Route {
  method: string;
  template: string;
  segments: string[];
}

/** JSON pointer (as a URI fragment) of `tokens` inside the document. */
function pointer(tokens: readonly string[]): string {
  return `#/${tokens.map((t) => encodeURIComponent(t.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`;
}

function mediaType(contentType: string | undefined): string | undefined {
  return contentType?.split(';')[0]?.trim().toLowerCase() || undefined;
}

function describe(errors: ErrorObject[] | null | undefined, where: string): string[] {
  return (errors ?? []).map((error) => {
    const at = `${where}${error.instancePath}`;
    const params = error.keyword === 'additionalProperties' ? ` (${(error.params as { additionalProperty: string }).additionalProperty})` : '';
    return `${at} ${error.message ?? error.keyword}${params}`;
  });
}

export class PixApiValidator {
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly routes: Route[] = [];
  private static nextId = 0;
  private readonly id = `pix-api-${PixApiValidator.nextId++}`;
  private readonly document: OpenApiDocument;

  constructor(document: OpenApiDocument) {
    this.document = document;
    // strict: false because the document uses OpenAPI's own keywords (example, readOnly, …) beside
    // JSON Schema's; allErrors so that a violation report lists every problem at once.
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    this.ajv.addSchema({ ...document, $id: this.id });
    for (const [template, item] of Object.entries<Node>(document.paths ?? {})) {
      for (const method of METHODS) {
        const operation = item[method] as Node | undefined;
        // Operations with servers of their own (the payload "locations" read by payers' PSPs)
        // are not relative to the PSP's API base URL.
        if (!operation || operation.servers || item.servers) continue;
        this.routes.push({ method, template, segments: template.split('/').slice(1) });
      }
    }
  }

  /** The operation `method path` names, or undefined; literal segments win over templated ones. */
  findOperation(method: string, path: string): OperationMatch | undefined {
    const wanted = path.split('?')[0]!.split('/').slice(1);
    let best: { route: Route; params: Record<string, string>; literal: string } | undefined;
    for (const route of this.routes) {
      if (route.method !== method.toLowerCase() || route.segments.length !== wanted.length) continue;
      const params: Record<string, string> = {};
      let literal = '';
      const matches = route.segments.every((segment, i) => {
        const value = wanted[i]!;
        const name = /^\{(.+)\}$/.exec(segment)?.[1];
        if (name) {
          if (value === '') return false;
          try {
            params[name] = decodeURIComponent(value);
          } catch {
            return false;
          }
          literal += '0';
          return true;
        }
        literal += '1';
        return segment === value;
      });
      if (matches && (!best || literal > best.literal)) best = { route, params, literal };
    }
    if (!best) return undefined;
    const operation = this.document.paths[best.route.template][best.route.method] as Node;
    const scopes = ((operation.security ?? this.document.security ?? []) as Node[]).flatMap((requirement) => Object.values(requirement).flat() as string[]);
    return { method: best.route.method, template: best.route.template, pathParams: best.params, operation, scopes };
  }

  /** The OAuth2 scopes the document's security scheme declares, with their descriptions. */
  scopes(): Record<string, string> {
    const schemes = (this.document.components?.securitySchemes ?? {}) as Node;
    return Object.assign({}, ...Object.values(schemes).map((scheme: Node) => scheme.flows?.clientCredentials?.scopes ?? {}));
  }

  /**
   * Violations of the document by a request; `path` is relative to the PSP's base URL and `body`
   * is the parsed JSON (a string when it did not parse; undefined when there was none).
   */
  validateRequest(method: string, path: string, query: Query, headers: Headers, body: unknown): string[] {
    const match = this.findOperation(method, path);
    const name = `${method.toUpperCase()} ${path}`;
    if (!match) return [`${name}: no such operation in the Pix API document`];
    const where = `${method.toUpperCase()} ${match.template}`;
    const violations: string[] = [];
    const lowerHeaders = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

    for (const { parameter, tokens } of this.parameters(match.template, match.method)) {
      const source = parameter.in === 'path' ? match.pathParams : parameter.in === 'query' ? query : parameter.in === 'header' ? lowerHeaders : undefined;
      if (!source) continue;
      const key = parameter.in === 'header' ? String(parameter.name).toLowerCase() : String(parameter.name);
      const raw = source[key];
      if (raw === undefined) {
        if (parameter.required || parameter.in === 'path') violations.push(`${where}: ${parameter.in} parameter "${parameter.name}" is required`);
        continue;
      }
      if (Array.isArray(raw)) {
        violations.push(`${where}: ${parameter.in} parameter "${parameter.name}" is given ${raw.length} times`);
        continue;
      }
      if (!parameter.schema) continue;
      const value = this.coerce(raw, parameter.schema as Node);
      const validate = this.validator([...tokens, 'schema']);
      if (!validate(value)) violations.push(...describe(validate.errors, `${where}: ${parameter.in} parameter "${parameter.name}"`));
    }

    const requestBody = this.requestBody(match.template, match.method);
    if (!requestBody) {
      if (body !== undefined && body !== '') violations.push(`${where}: the document defines no request body, yet one was sent`);
      return violations;
    }
    if (body === undefined || body === '') {
      if (requestBody.node.required) violations.push(`${where}: a request body is required`);
      return violations;
    }
    const contentType = mediaType(lowerHeaders['content-type'] as string | undefined);
    const media = Object.keys(requestBody.node.content ?? {});
    const chosen = media.find((m) => m.toLowerCase() === contentType);
    if (!chosen) {
      violations.push(`${where}: content-type ${contentType ?? '(none)'} is not one the document accepts (${media.join(', ')})`);
      return violations;
    }
    if (chosen.toLowerCase().endsWith('json') && typeof body === 'string') {
      violations.push(`${where}: the body is not JSON`);
      return violations;
    }
    if (requestBody.node.content[chosen].schema) {
      const validate = this.validator([...requestBody.tokens, 'content', chosen, 'schema']);
      if (!validate(body)) violations.push(...describe(validate.errors, `${where}: body`));
    }
    return violations;
  }

  /** Violations of the document by a response to `method path` (relative to the base URL). */
  validateResponse(method: string, path: string, status: number, body: unknown, contentType?: string): string[] {
    const match = this.findOperation(method, path);
    const name = `${method.toUpperCase()} ${path}`;
    if (!match) return [`${name}: no such operation in the Pix API document`];
    const where = `${method.toUpperCase()} ${match.template} → ${status}`;
    const responses = (match.operation.responses ?? {}) as Node;
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => responses[k] !== undefined);
    if (!key) return [`${where}: status ${status} is not among the operation's responses (${Object.keys(responses).join(', ')})`];
    const resolved = this.resolve([...this.operationTokens(match.template, match.method), 'responses', key]);
    const content = (resolved.node.content ?? {}) as Node;
    const media = Object.keys(content);
    const empty = body === undefined || body === '';
    if (media.length === 0) return empty ? [] : [`${where}: the document defines no body for this response, yet one was sent`];
    if (empty) return [`${where}: the document defines a body (${media.join(', ')}), but none was sent`];
    const type = mediaType(contentType);
    const chosen = type === undefined ? media[0]! : media.find((m) => m.toLowerCase() === type);
    if (!chosen) return [`${where}: content-type ${type} is not the document's (${media.join(', ')})`];
    if (chosen.toLowerCase().endsWith('json') && typeof body === 'string') return [`${where}: the body is not JSON`];
    if (!content[chosen].schema) return [];
    const validate = this.validator([...resolved.tokens, 'content', chosen, 'schema']);
    return validate(body) ? [] : describe(validate.errors, `${where}: body`);
  }

  /**
   * Violations of the document by a callback's body: `name` is the callback's name in the
   * document (`listaPix`: the Pix webhook, POSTed to `{webhookUrl}/pix`).
   */
  validateCallback(body: unknown, name = 'listaPix'): string[] {
    for (const [template, item] of Object.entries<Node>(this.document.paths ?? {})) {
      for (const method of METHODS) {
        const callback = item[method]?.callbacks?.[name] as Node | undefined;
        if (!callback) continue;
        const [expression, pathItem] = Object.entries(callback)[0] as [string, Node];
        const tokens = ['paths', template, method, 'callbacks', name, expression, 'post', 'requestBody'];
        if (!pathItem.post?.requestBody) return [];
        const requestBody = this.resolve(tokens);
        const validate = this.validator([...requestBody.tokens, 'content', 'application/json', 'schema']);
        return validate(body) ? [] : describe(validate.errors, `callback ${name} (POST ${expression}): body`);
      }
    }
    return [`callback ${name}: not in the Pix API document`];
  }

  private operationTokens(template: string, method: string): string[] {
    return ['paths', template, method];
  }

  /** Follows `$ref`s (of parameters, request bodies, responses) to the node and its location. */
  private resolve(tokens: string[]): { node: Node; tokens: string[] } {
    let node: Node = tokens.reduce((at: Node, token) => at?.[token], this.document);
    let at = tokens;
    for (let hops = 0; typeof node?.$ref === 'string' && hops < 10; hops++) {
      at = node.$ref
        .replace(/^#\//, '')
        .split('/')
        .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
      node = at.reduce((n: Node, token) => n?.[token], this.document);
    }
    return { node, tokens: at };
  }

  /** The path item's and the operation's parameters, the operation's winning on (name, in). */
  private parameters(template: string, method: string): { parameter: Node; tokens: string[] }[] {
    const byKey = new Map<string, { parameter: Node; tokens: string[] }>();
    for (const base of [
      ['paths', template],
      ['paths', template, method],
    ]) {
      const list = (base.reduce((at: Node, token) => at?.[token], this.document)?.parameters ?? []) as unknown[];
      list.forEach((_, i) => {
        const { node, tokens } = this.resolve([...base, 'parameters', String(i)]);
        byKey.set(`${node.in}:${node.name}`, { parameter: node, tokens });
      });
    }
    return [...byKey.values()];
  }

  private requestBody(template: string, method: string): { node: Node; tokens: string[] } | undefined {
    const tokens = [...this.operationTokens(template, method), 'requestBody'];
    if (!this.document.paths[template][method].requestBody) return undefined;
    return this.resolve(tokens);
  }

  /** Query and path values arrive as strings; they are read as the schema's type says. */
  private coerce(raw: string, schema: Node): unknown {
    const type = this.schemaType(schema);
    if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
    if (type === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
    return raw;
  }

  private schemaType(schema: Node | undefined, depth = 0): string | undefined {
    if (!schema || depth > 10) return undefined;
    if (typeof schema.type === 'string') return schema.type;
    if (typeof schema.$ref === 'string') {
      const target = schema.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((n: Node, t) => n?.[t], this.document);
      return this.schemaType(target, depth + 1);
    }
    for (const part of (schema.allOf ?? []) as Node[]) {
      const type = this.schemaType(part, depth + 1);
      if (type) return type;
    }
    return undefined;
  }

  /** The compiled validator of the schema at `tokens` in the document (compiled once). */
  private validator(tokens: string[]): ValidateFunction {
    const ref = `${this.id}${pointer(tokens)}`;
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.getSchema(ref);
      if (!validate) throw new Error(`no schema at ${pointer(tokens)} in the Pix API document`);
      this.compiled.set(ref, validate);
    }
    return validate;
  }
}

let shared: PixApiValidator | undefined;

/** The validator of the patched document, built once per process. */
export function pixApiValidator(): PixApiValidator {
  shared ??= new PixApiValidator(patchedDocument());
  return shared;
}

/** `pixApiValidator().validateRequest(…)`: violations of the (patched) document by a request. */
export function validateRequest(method: string, path: string, query: Query, headers: Headers, body: unknown): string[] {
  return pixApiValidator().validateRequest(method, path, query, headers, body);
}

/** `pixApiValidator().validateResponse(…)`: violations of the (patched) document by a response. */
export function validateResponse(method: string, path: string, status: number, body: unknown, contentType?: string): string[] {
  return pixApiValidator().validateResponse(method, path, status, body, contentType);
}
