import { GLOBAL_MODULE_METADATA, MODULE_METADATA } from '@nestjs/common/constants';
import { AppConfig } from './config/app-config';
import { AppModule } from './app.module';
import { DELIVERY_NUDGE } from './deliveries/delivery-nudge';
import { PaymentsModule } from './payments/payments.module';

type ModuleClass = abstract new (...args: never[]) => unknown;

/** Every module class under AppModule, following static imports and dynamic modules. */
function allModules(): ModuleClass[] {
  const seen = new Set<ModuleClass>();
  const visit = (entry: unknown): void => {
    const cls = (typeof entry === 'function' ? entry : (entry as { module?: unknown } | undefined)?.module) as ModuleClass | undefined;
    if (!cls || seen.has(cls)) return;
    seen.add(cls);
    const imports = [
      ...((Reflect.getMetadata(MODULE_METADATA.IMPORTS, cls) as unknown[] | undefined) ?? []),
      ...(typeof entry === 'object' ? ((entry as { imports?: unknown[] }).imports ?? []) : []),
    ];
    imports.forEach(visit);
  };
  visit(AppModule.forRoot(new AppConfig({} as never)));
  return [...seen];
}

describe('module graph', () => {
  it('makes global only the modules every feature needs (config, crypto, the database setup, metrics, throttling, the admin session, auth, shutdown)', () => {
    // LoggerModule (nestjs-pino) and TypeOrmCoreModule are the libraries' own global modules.
    const globals = allModules()
      .filter((cls) => cls.name !== 'LoggerModule' && cls.name !== 'TypeOrmCoreModule')
      .filter((cls) => Reflect.getMetadata(GLOBAL_MODULE_METADATA, cls) === true)
      .map((cls) => cls.name)
      .sort();
    expect(globals).toEqual(['AuthModule', 'ConfigModule', 'CryptoModule', 'DashboardModule', 'DatabaseSetupModule', 'MetricsModule', 'ShutdownModule', 'ThrottleModule']);
  });

  it('gives the payment lifecycle (intake, reconciliation) the delivery nudge through an import (it is optional, so a missing one would fail silently)', () => {
    const imports = (Reflect.getMetadata(MODULE_METADATA.IMPORTS, PaymentsModule) as ModuleClass[] | undefined) ?? [];
    const exported = imports.flatMap((cls) => (Reflect.getMetadata(MODULE_METADATA.EXPORTS, cls) as unknown[] | undefined) ?? []);
    expect(exported).toContain(DELIVERY_NUDGE);
  });
});
