import type { OutboundAnswer, OutboundTransport } from '../providers/transport/transport';

/**
 * The transport for an adapter a unit test builds but never lets reach a PSP (descriptors,
 * credentials, a callback refused before any read-back): every exchange fails, loudly.
 */
export const NO_TRANSPORT: OutboundTransport = {
  send: (request): Promise<OutboundAnswer> => Promise.reject(new Error(`${request.label}: no I/O in this test`)),
  close: () => undefined,
};
