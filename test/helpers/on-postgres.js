// Setup of the `medium:postgres` and `e2e:postgres` Jest projects: specs there run on PostgreSQL (test-env.ts, testDatabase()).
process.env.TEST_DB = 'postgres';
