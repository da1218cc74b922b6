import { RouteConfig } from '@nestjs/platform-fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by @NoEnvelope(): EnvelopingFastifyAdapter sends the handler's result as it is. */
    gatewayNoEnvelope?: boolean;
  }
}

/** Routes outside the API (health, metrics, the simulated PSP) answer with their own bodies. */
export const NoEnvelope = () => RouteConfig({ gatewayNoEnvelope: true });
