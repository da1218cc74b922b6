import { SetMetadata } from '@nestjs/common';

export const NO_ENVELOPE = 'gateway:no-envelope';
/** Routes outside the API (health, metrics, the simulated PSP) answer with their own bodies. */
export const NoEnvelope = () => SetMetadata(NO_ENVELOPE, true);
