/** What a merchant request knows about its caller. */
export interface AuthenticatedMerchant {
  id: string;
  name: string;
  provider: string | null;
  apiKeyId: string;
}

/**
 * How the key guard finds the merchant behind an `X-Merchant-Key`. Declared here and provided by the
 * merchants module (which owns the keys), so the guards sit below every feature that uses them.
 */
export const MERCHANT_KEY_RESOLVER = Symbol('MERCHANT_KEY_RESOLVER');
export interface MerchantKeyResolver {
  /** The key's merchant; throws AppError MISSING_MERCHANT_KEY or INVALID_MERCHANT_KEY otherwise. */
  authenticate(presented: string | undefined): Promise<AuthenticatedMerchant>;
}
