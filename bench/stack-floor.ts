/**
 * The stack floor: the bare floor's work (bench/floor-create.ts and bench/floor-callback.ts: the same
 * statements, upstream call, QR and sender) served through the gateway's stack instead of by hand:
 * Nest controllers on Fastify, the gateway's own CreatePaymentDto checked by class-validator's
 * ValidationPipe, statements and transactions through a TypeORM DataSource (`pg`, a pool of the
 * gateway's size), and every outbound call through @nestjs/axios over a keep-alive agent, each as it
 * comes. Nothing else: no guard, interceptor, filter, log, metric or cache.
 * `BENCH_FLOOR=stack npm run bench -- create read callbacks` measures the gateway against it, which
 * says what the stack costs before the gateway does anything of its own (docs/performance.md, The
 * stack's own floor).
 *
 * Env: as bench/floor.ts.
 */
import 'reflect-metadata';
import { Agent } from 'node:http';
import { HttpModule, HttpService } from '@nestjs/axios';
import { Body, Controller, Get, Headers, Injectable, Module, Param, Post, type RawBodyRequest, Req, Res, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource, type EntityManager } from 'typeorm';
import { CreatePaymentDto } from '../src/payments/dto/create-payment.dto';
import { HttpTransport } from '../src/providers/transport/http-transport';
import { FloorCallbacks, SANDBOX_SIGNATURE_HEADER } from './floor-callback';
import { floorCreate, type FloorIo, floorRead, type Merchant, merchantByKey } from './floor-create';

const upstream = new URL(process.env.UPSTREAM_URL!);
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

@Injectable()
class StackFloorService {
  private readonly io: FloorIo;
  readonly callbacks: FloorCallbacks;

  constructor(dataSource: DataSource, http: HttpService) {
    // STACK_FLOOR_TRANSPORT=gateway sends through the gateway's own transport (its axios adapter over
    // node:http, src/providers/transport) instead of axios's http adapter: the stack as the gateway uses it.
    const transport = process.env.STACK_FLOOR_TRANSPORT === 'gateway' ? new HttpTransport({ axios: http.axiosRef, maxSockets: 256 }) : undefined;
    const post = async (url: string, headers: Record<string, string>, text: string) => {
      if (transport) {
        const sent = await transport.send({
          label: 'floor',
          method: 'POST',
          url: new URL(url),
          headers: { 'content-type': 'application/json', ...headers },
          body: text,
          channel: { key: 'floor' },
          timeoutMs: 10_000,
        });
        return { status: sent.status, text: sent.text };
      }
      const answer = await http.axiosRef.post<string>(url, text, {
        headers: { 'content-type': 'application/json', ...headers },
        httpAgent: agent,
        responseType: 'text',
        transformResponse: [(data: unknown) => data],
        validateStatus: () => true,
        timeout: 10_000,
      });
      return { status: answer.status, text: answer.data };
    };
    this.io = { query: (text, values) => queryOf(dataSource.manager, text, values), post: (path, headers, text) => post(new URL(path, upstream).href, headers, text) };
    this.callbacks = new FloorCallbacks(
      {
        query: this.io.query,
        transaction: (work) => dataSource.transaction((manager) => work((text, values) => queryOf(manager, text, values))),
        postTo: async (url, headers, text) => (await post(url, headers, text)).status,
      },
      process.env.CALLBACK_SECRET ?? '',
      Number(process.env.DELIVERY_CONCURRENCY ?? 32),
    );
  }

  async create(merchantKey: string | undefined, key: string, dto: CreatePaymentDto): Promise<{ status: number; text: string }> {
    const merchant = await this.merchantOf(merchantKey);
    return merchant ? floorCreate(this.io, merchant, key, dto) : UNAUTHORIZED;
  }

  async read(merchantKey: string | undefined, id: string): Promise<{ status: number; text: string }> {
    const merchant = await this.merchantOf(merchantKey);
    return merchant ? floorRead(this.io, merchant, id) : UNAUTHORIZED;
  }

  private async merchantOf(merchantKey: string | undefined): Promise<Merchant | undefined> {
    return merchantKey ? merchantByKey(this.io, merchantKey) : undefined;
  }
}

const UNAUTHORIZED = { status: 401, text: JSON.stringify({ success: false, error: { code: 'INVALID_MERCHANT_KEY' } }) };

/** A statement through TypeORM, answered as `pg` answers: TypeORM gives a SELECT or INSERT its rows, an UPDATE or DELETE [rows, count]. */
async function queryOf(manager: EntityManager, text: string, values: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }> {
  const result = await manager.query<unknown[]>(text, values);
  return Array.isArray(result[0]) && typeof result[1] === 'number' ? { rows: result[0] as unknown[], rowCount: result[1] } : { rows: result, rowCount: result.length };
}

function answer(reply: FastifyReply, { status, text }: { status: number; text: string }): void {
  void reply.code(status).header('content-type', 'application/json; charset=utf-8').send(text);
}

@Controller()
class StackFloorController {
  constructor(private readonly floor: StackFloorService) {}

  @Post('v1/payments/create')
  async create(
    @Headers('x-merchant-key') merchantKey: string | undefined,
    @Headers('idempotency-key') key: string,
    @Body() dto: CreatePaymentDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    answer(reply, await this.floor.create(merchantKey, key, dto));
  }

  @Get('v1/payments/:id')
  async read(@Headers('x-merchant-key') merchantKey: string | undefined, @Param('id') id: string, @Res() reply: FastifyReply): Promise<void> {
    answer(reply, await this.floor.read(merchantKey, id));
  }

  @Post('webhooks/sandbox')
  async callback(@Req() req: RawBodyRequest<FastifyRequest>, @Res() reply: FastifyReply): Promise<void> {
    const { status, body } = await this.floor.callbacks.receive(req.headers[SANDBOX_SIGNATURE_HEADER], req.rawBody, req.body as never);
    void reply.code(status).send(body);
  }

  @Get('health')
  health(): { status: string } {
    return { status: 'ok' };
  }
}

@Module({
  imports: [HttpModule],
  controllers: [StackFloorController],
  providers: [
    StackFloorService,
    {
      provide: DataSource,
      useFactory: () => new DataSource({ type: 'postgres', url: process.env.DATABASE_URL, extra: { max: Number(process.env.DATABASE_POOL_SIZE ?? 20) } }).initialize(),
    },
  ],
})
class StackFloorModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(StackFloorModule, new FastifyAdapter(), { logger: ['error'], rawBody: true });
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT), '127.0.0.1');
}

void main();
