import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ERROR_TABLE, ErrorCode } from '../errors/error-codes';

/** OpenAPI models of the envelope, so generated clients know every body's shape. */
export class ApiErrorBody {
  @ApiProperty({ enum: ErrorCode, example: ErrorCode.VALIDATION_ERROR }) code: ErrorCode;
  @ApiProperty({ example: 'The request is invalid.' }) message: string;
  @ApiPropertyOptional({ description: 'HTTP status the provider answered with (upstream failures).', example: 503 }) upstream_status?: number;
  @ApiPropertyOptional({
    description: 'VALIDATION_ERROR: `{fields:[{field,message}]}`; upstream failures: `{provider_code, provider_message}`.',
    type: 'object',
    additionalProperties: true,
  })
  details?: Record<string, unknown>;
}

export class ApiErrorEnvelope {
  @ApiProperty({ example: false }) success: false;
  @ApiProperty({ type: ApiErrorBody }) error: ApiErrorBody;
  @ApiProperty({ format: 'uuid', example: '9b2f6c1e-3c4d-4f7a-9a51-2a8f0d3e4b11' }) request_id: string;
  @ApiProperty({ example: 'efi' }) provider: string;
}

/** What a client sees for `code`: the envelope with the table's message (details where the code always has some). */
function errorExample(code: ErrorCode): Record<string, unknown> {
  const details: Partial<Record<ErrorCode, Record<string, unknown>>> = {
    [ErrorCode.VALIDATION_ERROR]: { fields: [{ field: 'amount', message: 'amount must be greater than 0 with at most 2 decimal places' }] },
    [ErrorCode.REFUND_EXCEEDS_AVAILABLE]: { available: 4 },
    [ErrorCode.UPSTREAM_ERROR]: { provider_code: 'ValorDevolucaoInvalido', provider_message: 'O valor excede o saldo devolvível do Pix.' },
  };
  const upstream = code === ErrorCode.UPSTREAM_ERROR || code === ErrorCode.PAYMENT_CREATE_FAILED ? { upstream_status: 503 } : {};
  return {
    success: false,
    error: { code, message: ERROR_TABLE[code].message, ...upstream, ...(details[code] ? { details: details[code] } : {}) },
    request_id: '9b2f6c1e-3c4d-4f7a-9a51-2a8f0d3e4b11',
    provider: 'efi',
  };
}

/** Documents error answers from the one table: status, code and message, with an example of each code. */
export function ApiErrorResponses(...codes: ErrorCode[]): MethodDecorator & ClassDecorator {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_TABLE[code].status, [...(byStatus.get(ERROR_TABLE[code].status) ?? []), code]);
  return applyDecorators(
    ApiExtraModels(ApiErrorEnvelope),
    ...[...byStatus].map(([status, list]) =>
      ApiResponse({
        status,
        description: list.map((code) => `\`${code}\`: ${ERROR_TABLE[code].message}`).join(' / '),
        type: ApiErrorEnvelope,
        examples: Object.fromEntries(list.map((code) => [code, { summary: ERROR_TABLE[code].message, value: errorExample(code) }])),
      }),
    ),
  );
}

/** Documents a success answer whose `data` is `model` (or an array of it). */
export function ApiEnvelopeResponse(status: number, model: Type<unknown>, options: { isArray?: boolean; description?: string; example?: unknown } = {}): MethodDecorator {
  const data = options.isArray ? { type: 'array', items: { $ref: getSchemaPath(model) } } : { $ref: getSchemaPath(model) };
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status,
      description: options.description ?? 'Success',
      schema: {
        type: 'object',
        required: ['success', 'data', 'request_id', 'provider'],
        ...(options.example === undefined ? {} : { example: { success: true, data: options.example, request_id: '9b2f6c1e-3c4d-4f7a-9a51-2a8f0d3e4b11', provider: 'efi' } }),
        properties: {
          success: { type: 'boolean', example: true },
          data,
          request_id: { type: 'string', format: 'uuid' },
          provider: { type: 'string', example: 'efi' },
        },
      },
    }),
  );
}
