import { http } from './http';

/** A merchant and a key made through the admin API, for tests that drive a gateway process from outside. */
export async function newMerchantOverHttp(baseUrl: string, adminToken: string, fields: Record<string, unknown> = {}): Promise<{ id: string; apiKey: string }> {
  const auth = { authorization: `Bearer ${adminToken}` };
  const merchant = await http(baseUrl, 'POST', '/admin/api/merchants', { body: { name: 'Loja Teste', ...fields }, headers: auth });
  if (merchant.status !== 201) throw new Error(`creating a merchant failed: ${merchant.status} ${merchant.text}`);
  const key = await http(baseUrl, 'POST', `/admin/api/merchants/${merchant.body.data.id}/api-keys`, { headers: auth });
  if (key.status !== 201) throw new Error(`issuing a key failed: ${key.status} ${key.text}`);
  return { id: merchant.body.data.id, apiKey: key.body.data.key };
}
