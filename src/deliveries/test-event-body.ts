import { ApiProperty } from '@nestjs/swagger';
import { EventBody, type EventDoc } from './event-body';

/** The event type of a test event (docs/webhooks.md, Operators). */
export const TEST_EVENT_TYPE = 'test.ping';

/** `data` of a test event, as AdminDeliveriesService.sendTestEvent builds it. */
export class TestPingData {
  @ApiProperty({ example: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A', description: 'The merchant the event was sent to.' }) merchant_id: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-26T12:00:00.123Z', description: 'When it was sent: the same instant as `created_at`.' }) timestamp: string;
}

export class TestPingEvent extends EventBody(TEST_EVENT_TYPE, TestPingData, 'Which merchant the test was for, and when it was sent.') {}

export const TEST_EVENT_DOCS: Record<typeof TEST_EVENT_TYPE, EventDoc> = {
  'test.ping': {
    schema: TestPingEvent,
    summary: 'A test event',
    description:
      'An operator asked the gateway to check the endpoint (`POST /admin/api/merchants/{id}/test-event`, or **Send test event** in the dashboard). ' +
      'Sent once, signed like every event, never retried or stored; its `webhook-id` is its `id`. Answer it 2xx and otherwise ignore it.',
    example: {
      event: TEST_EVENT_TYPE,
      id: 'evt_3kTMd9Q2xLr8VbN1cZp4Wf7A',
      created_at: '2026-11-26T12:00:00.123Z',
      data: { merchant_id: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A', timestamp: '2026-11-26T12:00:00.123Z' },
    },
  },
};
