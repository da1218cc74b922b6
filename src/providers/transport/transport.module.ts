import { HttpModule, HttpService } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { HttpTransport } from './http-transport';
import { OutboundTransport } from './transport';

/**
 * The gateway's one OutboundTransport, on @nestjs/axios's client: PSP calls (ProvidersModule) and
 * merchant webhooks (DeliveriesModule) share it, and with it one set of pools. ProviderAdapters
 * closes it at application shutdown, after the HTTP server drained and the delivery worker stopped.
 */
@Module({
  imports: [HttpModule],
  providers: [{ provide: OutboundTransport, inject: [HttpService], useFactory: (http: HttpService): OutboundTransport => new HttpTransport({ axios: http.axiosRef }) }],
  exports: [OutboundTransport],
})
export class TransportModule {}
