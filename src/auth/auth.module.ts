import { DynamicModule, Global, Module, type ModuleMetadata, type Type } from '@nestjs/common';
import { MERCHANT_KEY_RESOLVER, type MerchantKeyResolver } from './merchant-key-resolver';

export interface AuthModuleOptions {
  /** The module that provides `merchantKeys`. */
  imports: NonNullable<ModuleMetadata['imports']>;
  /** What resolves an `X-Merchant-Key`: MERCHANT_KEY_RESOLVER is bound to it. */
  merchantKeys: Type<MerchantKeyResolver>;
}

/**
 * Authentication: the guards and decorators in this folder (merchant key, admin token or session,
 * metrics token). They check credentials through ports that the modules owning them provide
 * (MERCHANT_KEY_RESOLVER here, ADMIN_SESSION_VERIFIER by the dashboard), so auth sits low in the
 * layers and imports no feature. AppModule, which sees every module, binds the merchant-key port;
 * the module is global because every module with merchant routes builds the key guard.
 */
@Global()
@Module({})
export class AuthModule {
  static forRoot(options: AuthModuleOptions): DynamicModule {
    return {
      module: AuthModule,
      imports: options.imports,
      providers: [{ provide: MERCHANT_KEY_RESOLVER, useExisting: options.merchantKeys }],
      exports: [MERCHANT_KEY_RESOLVER],
    };
  }
}
