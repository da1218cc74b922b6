import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** One entry of a recurring callback the PSP confirmed, as it was applied. */
export class RecurringCallbackEvent {
  @ApiProperty({ enum: ['recurrence', 'charge'], example: 'recurrence', description: 'A recurrence (`/rec`) or a recurring charge (`/cobr`).' })
  kind: 'recurrence' | 'charge';
  @ApiProperty({ example: false, description: 'Received before: nothing changed.' }) duplicate: boolean;
  @ApiProperty({ example: true, description: "Whether the entry named one of the gateway's recurrences or charges." }) matched: boolean;
  @ApiPropertyOptional({ example: 'evt_4Lr8VbN1cZp4Wf7A3kTMd9Q2' }) event_id?: string;
  @ApiPropertyOptional({ example: 'rec_8Zp4Wf7A3kTMd9Q2xLr8VbN1' }) recurrence_id?: string;
  @ApiPropertyOptional({ example: 'rch_2xLr8VbN1cZp4Wf7A3kTMd9Q' }) charge_id?: string;
  @ApiPropertyOptional({ example: 'authorized', description: 'The status the recurrence or charge has after the entry.' }) status?: string;
}

/** The answer to a recurring callback (`/rec`, `/cobr`). */
export class RecurringCallbackResult {
  @ApiProperty({ enum: [true], example: true }) received: true;
  @ApiProperty({ example: false, description: 'Every entry of the callback had been received before (false for a callback without entries).' }) duplicate: boolean;
  @ApiProperty({ type: [RecurringCallbackEvent], description: "One per entry the PSP confirmed, in the callback's order." }) events: RecurringCallbackEvent[];
}
