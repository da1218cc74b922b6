import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { sqlRows } from '../../database/sql';
import { MerchantProviderAccount, ProviderAccount } from './provider-account.entity';

/** Every query of the `provider_accounts` table. */
@Injectable()
export class ProviderAccountRepository {
  constructor(@InjectRepository(ProviderAccount) private readonly accounts: Repository<ProviderAccount>) {}

  async insert(account: ProviderAccount): Promise<void> {
    await this.accounts.insert(account);
  }

  findById(id: string): Promise<ProviderAccount | null> {
    return this.accounts.findOneBy({ id });
  }

  /** Newest first. Operators hold a handful of accounts, so the list is not paged. */
  list(): Promise<ProviderAccount[]> {
    return this.accounts.find({ order: { createdAt: 'DESC', id: 'DESC' } });
  }

  findByIds(ids: string[]): Promise<ProviderAccount[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.accounts.findBy({ id: In(ids) });
  }

  async save(account: ProviderAccount): Promise<ProviderAccount> {
    return this.accounts.save(account);
  }
}

/** Every query of the `merchant_provider_accounts` table: each merchant's ordered account list. */
@Injectable()
export class MerchantProviderAccountRepository {
  constructor(@InjectRepository(MerchantProviderAccount) private readonly links: Repository<MerchantProviderAccount>) {}

  /** The merchant's account ids, first choice first. */
  async listForMerchant(merchantId: string): Promise<string[]> {
    // Raw SQL: this runs on every payment create, where TypeORM's find() costs more CPU than the query.
    const rows = await sqlRows<{ account_id: string }>(this.links.manager, 'SELECT account_id FROM merchant_provider_accounts WHERE merchant_id = $1 ORDER BY position', [
      merchantId,
    ]);
    return rows.map((row) => row.account_id);
  }

  /** The lists of several merchants at once (the admin merchant list). */
  async listForMerchants(merchantIds: string[]): Promise<Map<string, string[]>> {
    const lists = new Map<string, string[]>(merchantIds.map((id) => [id, []]));
    if (merchantIds.length === 0) return lists;
    const rows = await this.links.find({ where: { merchantId: In(merchantIds) }, order: { merchantId: 'ASC', position: 'ASC' } });
    for (const row of rows) lists.get(row.merchantId)?.push(row.accountId);
    return lists;
  }

  /** Replaces the merchant's whole list in one transaction: readers see the old list or the new one. */
  async replace(merchantId: string, accountIds: string[]): Promise<void> {
    await this.links.manager.transaction(async (tx) => {
      await tx.delete(MerchantProviderAccount, { merchantId });
      if (accountIds.length > 0)
        await tx.insert(
          MerchantProviderAccount,
          accountIds.map((accountId, position) => ({ merchantId, position, accountId })),
        );
    });
  }
}
