import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { PageLimit } from '../../common/http/page-query';
import { RECURRENCE_STATUSES, type RecurrenceStatus } from '../../domain/recurrence';
import { CHARGE_SIMULATIONS, type ChargeSimulation, RECURRENCE_SIMULATIONS, type RecurrenceSimulation } from '../../providers/recurring';

/** Filters of `GET /admin/api/recurrences`: every merchant's, newest first. */
export class ListAdminRecurrencesQuery {
  @ApiPropertyOptional({ example: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A' })
  @IsOptional()
  @IsString()
  merchant_id?: string;

  @ApiPropertyOptional({ enum: RECURRENCE_STATUSES })
  @IsOptional()
  @IsIn(RECURRENCE_STATUSES)
  status?: RecurrenceStatus;

  @ApiPropertyOptional({ example: 'subscription-881' })
  @IsOptional()
  @IsString()
  external_id?: string;

  @ApiPropertyOptional({ description: 'The `next_cursor` of the previous page.' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,200}$/, { message: 'cursor is not a cursor this API returned' })
  cursor?: string;

  @PageLimit(50)
  limit?: number;
}

/** What a test PSP is asked to make happen to a recurrence, as the payer or the payer's bank would. */
export class SimulateRecurrenceDto {
  @ApiProperty({
    enum: RECURRENCE_SIMULATIONS,
    example: 'authorize',
    description: 'authorize, reject or let expire a recurrence waiting for the payer; payer_cancel an active one, as the payer would at their bank.',
  })
  @IsIn(RECURRENCE_SIMULATIONS)
  action: RecurrenceSimulation;
}

/** What a test PSP is asked to make happen to a recurring charge's current attempt. */
export class SimulateRecurringChargeDto {
  @ApiProperty({ enum: CHARGE_SIMULATIONS, example: 'settle', description: "settle (the payer's bank debits it) or fail (it does not) the charge's current attempt." })
  @IsIn(CHARGE_SIMULATIONS)
  action: ChargeSimulation;
}
