import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { ChangeFeed } from '../../database/change-feed';
import { sqlRows } from '../../database/sql';
import { MerchantProviderAccount, ProviderAccount } from './provider-account.entity';

/** Every query of the `provider_accounts` table. */
@Injectable()
export class ProviderAccountRepository {
  constructor(
    @InjectRepository(ProviderAccount) private readonly accounts: Repository<ProviderAccount>,
    private readonly changes: ChangeFeed,
  ) {}

  async insert(account: ProviderAccount): Promise<void> {
    await this.accounts.insert(account);
    this.changes.changed('provider_accounts');
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
    const saved = await this.accounts.save(account);
    this.changes.changed('provider_accounts');
    return saved;
  }

  /**
   * Deletes the account, with its sealed credentials, unless a merchant lists it or a pending payment
   * was charged through it. The row is locked first: linking it to a merchant (whose foreign key
   * takes a share lock on it) waits, so nothing starts using it between the check and the delete.
   */
  async deleteUnlessUsed(id: string): Promise<AccountDeletion> {
    const deletion = await this.accounts.manager.transaction(async (tx): Promise<AccountDeletion> => {
      const locked = await sqlRows<{ id: string }>(tx, `SELECT id FROM provider_accounts WHERE id = $1 FOR UPDATE`, [id]);
      if (locked.length === 0) return { kind: 'not_found' };
      const [usage] = await sqlRows<{ merchants: string[]; pending: number }>(
        tx,
        `SELECT (SELECT coalesce(array_agg(merchant_id ORDER BY merchant_id), '{}') FROM merchant_provider_accounts WHERE account_id = $1) AS merchants,
                (SELECT count(*)::int FROM payments WHERE provider_account_id = $1 AND status = 'pending') AS pending`,
        [id],
      );
      if (usage!.merchants.length > 0 || usage!.pending > 0) return { kind: 'in_use', merchantIds: usage!.merchants, pendingPayments: usage!.pending };
      await tx.query(`DELETE FROM provider_accounts WHERE id = $1`, [id]);
      return { kind: 'deleted' };
    });
    if (deletion.kind === 'deleted') this.changes.changed('provider_accounts');
    return deletion;
  }
}

export type AccountDeletion = { kind: 'deleted' } | { kind: 'not_found' } | { kind: 'in_use'; merchantIds: string[]; pendingPayments: number };

/** Every query of the `merchant_provider_accounts` table: each merchant's ordered account list. */
@Injectable()
export class MerchantProviderAccountRepository {
  constructor(
    @InjectRepository(MerchantProviderAccount) private readonly links: Repository<MerchantProviderAccount>,
    private readonly changes: ChangeFeed,
  ) {}

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
    this.changes.changed('merchant_provider_accounts');
  }
}
