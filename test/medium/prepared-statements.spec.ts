import type { QueryRunner } from 'typeorm';
import { MediumContext, newMediumContext } from '../helpers/medium';
import { testDatabase } from '../helpers/test-env';

// The pool's connections prepare each parameterised statement once (src/database/prepared-statements.ts).
describe(`prepared statements (${testDatabase()} database)`, () => {
  let ctx: MediumContext;
  let runner: QueryRunner;
  beforeAll(async () => {
    ctx = await newMediumContext();
    await ctx.dataSource.query(`CREATE TABLE prepared_probe (id int PRIMARY KEY, a text)`);
    await ctx.dataSource.query(`INSERT INTO prepared_probe VALUES (1, 'one'), (2, 'two')`);
  });
  beforeEach(() => {
    runner = ctx.dataSource.createQueryRunner(); // one connection, whose prepared statements the spec can see
  });
  afterEach(() => runner.release());
  afterAll(() => ctx.close());

  // Another connection's migration on PostgreSQL; the embedded database has one connection, the runner's.
  const alter = (sql: string) => (testDatabase() === 'embedded' ? runner.query(sql) : ctx.dataSource.query(sql));
  const preparedOn = async (qr: QueryRunner, like: string) =>
    (await qr.query(`SELECT statement FROM pg_prepared_statements WHERE statement LIKE $1`, [like])) as { statement: string }[];

  it('prepares a statement with parameters once on its connection, and answers each call with that call’s values', async () => {
    for (const id of [1, 2, 1]) expect(await runner.query(`SELECT a FROM prepared_probe WHERE id = $1`, [id])).toEqual([{ a: id === 1 ? 'one' : 'two' }]);
    expect(await preparedOn(runner, '%FROM prepared_probe WHERE id%')).toEqual([{ statement: 'SELECT a FROM prepared_probe WHERE id = $1' }]);
  });

  it('after its table changes shape (a migration), prepares SELECT * afresh outside a transaction', async () => {
    const sql = `SELECT * FROM prepared_probe WHERE id = $1`;
    for (let i = 0; i < 6; i++) await runner.query(sql, [1]); // past the custom plans, to a cached one
    await alter(`ALTER TABLE prepared_probe ADD COLUMN b text DEFAULT 'bee'`);
    expect(await runner.query(sql, [1])).toEqual([{ id: 1, a: 'one', b: 'bee' }]);
  });

  it('inside a transaction, fails the statement as PostgreSQL does, and the connection prepares it afresh after the rollback', async () => {
    const sql = `SELECT * FROM prepared_probe WHERE id = $1`;
    await runner.query(sql, [2]);
    await alter(`ALTER TABLE prepared_probe ADD COLUMN c int DEFAULT 3`);
    await runner.startTransaction();
    await expect(runner.query(sql, [2])).rejects.toThrow('cached plan must not change result type');
    await runner.rollbackTransaction();
    expect(await runner.query(sql, [2])).toEqual([{ id: 2, a: 'two', b: 'bee', c: 3 }]);
  });

  // Both connection classes answer TypeORM's forms through a callback of their own (PooledClient).
  it.each([
    ['preparing', {}],
    ['plain', { DATABASE_PREPARED_STATEMENTS: 'false' }],
  ])('a %s connection answers every form of query as pg does, failures included', async (_kind, env) => {
    const context = Object.keys(env).length === 0 ? ctx : await newMediumContext({ env });
    const qr = context.dataSource.createQueryRunner();
    try {
      const probe = `(VALUES (1, 'one'), (2, 'two')) AS probe (id, a)`;
      expect(await qr.query(`SELECT a FROM ${probe} ORDER BY id`)).toEqual([{ a: 'one' }, { a: 'two' }]);
      expect(await qr.query(`SELECT a FROM ${probe} WHERE id = $1`, [2])).toEqual([{ a: 'two' }]);
      await expect(qr.query(`SELECT a FROM ${probe} WHERE id = $1`, ['not a number'])).rejects.toThrow('invalid input syntax for type integer');
      await expect(qr.query(`SELECT nothing FROM ${probe}`)).rejects.toThrow('column "nothing" does not exist');
      const client = (await qr.connect()) as import('pg').Client;
      expect((await client.query({ text: 'SELECT $1::text AS t', values: ['config'] })).rows).toEqual([{ t: 'config' }]);
      const viaCallback = await new Promise((resolve, reject) => client.query('SELECT 2 AS two', (error, result) => (error ? reject(error) : resolve(result.rows))));
      expect(viaCallback).toEqual([{ two: 2 }]);
    } finally {
      await qr.release();
      if (context !== ctx) await context.close();
    }
  });

  it('prepares nothing with DATABASE_PREPARED_STATEMENTS=false', async () => {
    const plain = await newMediumContext({ env: { DATABASE_PREPARED_STATEMENTS: 'false' } });
    const qr = plain.dataSource.createQueryRunner();
    try {
      expect(await qr.query(`SELECT id FROM merchants WHERE id = $1`, ['mer_none'])).toEqual([]);
      expect(await preparedOn(qr, '%')).toEqual([]);
    } finally {
      await qr.release();
      await plain.close();
    }
  });
});
