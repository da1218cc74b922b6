import { DynamicModule, Global, Module } from '@nestjs/common';
import { Clock, SystemClock } from '../domain/clock';
import { AppConfig } from './app-config';

/** Makes the validated AppConfig, and the Clock, injectable everywhere. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig, clock: Clock = new SystemClock()): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: Clock, useValue: clock },
      ],
      exports: [AppConfig, Clock],
    };
  }
}
