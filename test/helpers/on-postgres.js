// Setup of the `integration:postgres` and `e2e:postgres` Jest projects: specs there boot on PostgreSQL (test-app.ts, testDatabase()).
process.env.TEST_DB = 'postgres';
