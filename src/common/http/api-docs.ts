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

/** Documents error answers from the one table: status, code and message. */
export function ApiErrorResponses(...codes: ErrorCode[]): MethodDecorator & ClassDecorator {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_TABLE[code].status, [...(byStatus.get(ERROR_TABLE[code].status) ?? []), code]);
  return applyDecorators(
    ApiExtraModels(ApiErrorEnvelope),
    ...[...byStatus].map(([status, list]) =>
      ApiResponse({
        status,
        description: list.map((code) => `\`${code}\`: ${ERROR_TABLE[code].message}`).join(' / '),
        schema: { $ref: getSchemaPath(ApiErrorEnvelope) },
      }),
    ),
  );
}

/** Documents a success answer whose `data` is `model` (or an array of it). */
export function ApiEnvelopeResponse(status: number, model: Type<unknown>, options: { isArray?: boolean; description?: string } = {}): MethodDecorator {
  const data = options.isArray ? { type: 'array', items: { $ref: getSchemaPath(model) } } : { $ref: getSchemaPath(model) };
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status,
      description: options.description ?? 'Success',
      schema: {
        type: 'object',
        required: ['success', 'data', 'request_id', 'provider'],
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
