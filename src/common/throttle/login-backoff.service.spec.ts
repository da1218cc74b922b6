import { accountBackoffSeconds } from './login-backoff.service';

describe('accountBackoffSeconds', () => {
  it('is free for the first 9 failures, then doubles from 2 s with each failure, never past 60 s', () => {
    expect(Array.from({ length: 9 }, (_, i) => accountBackoffSeconds(i + 1))).toEqual(Array(9).fill(0));
    expect([10, 11, 12, 13, 14, 15, 16, 100, 10_000].map(accountBackoffSeconds)).toEqual([2, 4, 8, 16, 32, 60, 60, 60, 60]);
  });
});
