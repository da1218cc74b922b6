import { BeforeApplicationShutdown, Injectable, Logger, Module, OnApplicationBootstrap, SetMetadata } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService, Reflector } from '@nestjs/core';
import { AppConfig } from '../../config/app-config';
import { PeriodicJob } from './periodic-job';

/**
 * A feature's reconciliation (docs/architecture.md, Reconciliation): what it reads back from the
 * PSPs, or settles on its own, when reports did not come. The feature owns what a pass does; the
 * runner owns when passes run, that one runs at a time in a process, and that they stop before
 * shutdown. Passes share work across processes by leases in the database, never by this runner.
 */
export interface Reconciler<S = unknown> {
  /** One pass over what is due. Tests call it directly. */
  runOnce(): Promise<S>;
  /** The log line a pass earns (something changed or failed), or null to stay quiet. */
  report?(summary: S): string | null;
  /** Asked at shutdown beside waiting for the pass in progress: a long pass stops early. */
  stop?(): Promise<void>;
}

const RECONCILER_NAME = 'pix-gateway:reconciler';

/** Marks a provider as a reconciler, run every JOB_INTERVAL_MS under this name (its log lines' and errors'). */
export const Reconciles = (name: string): ClassDecorator => SetMetadata(RECONCILER_NAME, name);

/** The passes of a set of reconcilers, each on its own PeriodicJob (one pass at a time, never overlapping). */
export class ReconciliationJobs {
  private readonly jobs: { job: PeriodicJob; reconciler: Reconciler }[];

  constructor(intervalMs: number, reconcilers: { name: string; reconciler: Reconciler }[]) {
    this.jobs = reconcilers.map(({ name, reconciler }) => {
      const logger = new Logger(name);
      const job = new PeriodicJob({
        name,
        intervalMs,
        logger,
        run: async () => {
          const summary = await reconciler.runOnce();
          const line = reconciler.report?.(summary) ?? null;
          if (line) logger.log(summary, line);
        },
      });
      return { job, reconciler };
    });
  }

  start(): void {
    for (const { job } of this.jobs) job.start();
  }

  /** No pass starts after this; the passes in progress are asked to stop and awaited. */
  async stop(): Promise<void> {
    await Promise.all(this.jobs.flatMap(({ job, reconciler }) => [job.stop(), reconciler.stop ? reconciler.stop() : Promise.resolve()]));
  }
}

/** Finds every provider marked @Reconciles and runs it, in every feature, with one lifecycle. */
@Injectable()
export class ReconciliationRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private jobs?: ReconciliationJobs;

  constructor(
    private readonly config: AppConfig,
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
  ) {}

  /** The reconcilers the application holds, by name (what the runner runs). */
  reconcilers(): { name: string; reconciler: Reconciler }[] {
    return this.discovery
      .getProviders()
      .filter((wrapper) => wrapper.metatype && wrapper.instance && this.reflector.get<string | undefined>(RECONCILER_NAME, wrapper.metatype as object as new () => unknown))
      .map((wrapper) => ({ name: this.reflector.get<string>(RECONCILER_NAME, wrapper.metatype as object as new () => unknown), reconciler: wrapper.instance as Reconciler }));
  }

  onApplicationBootstrap(): void {
    this.jobs = new ReconciliationJobs(this.config.jobIntervalMs, this.reconcilers());
    this.jobs.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.jobs?.stop();
  }
}

@Module({ imports: [DiscoveryModule], providers: [ReconciliationRunner], exports: [ReconciliationRunner] })
export class ReconciliationModule {}
