import { isStalePlan, StatementNames } from './prepared-statements';

describe('StatementNames', () => {
  it('names a text the same way every time, and two texts apart', () => {
    const names = new StatementNames();
    const read = names.nameOf('SELECT * FROM payments WHERE id = $1');
    expect(read).toMatch(/^pgw_[\w-]{27}$/);
    expect(names.nameOf('SELECT * FROM payments WHERE id = $1')).toBe(read);
    expect(names.nameOf('SELECT * FROM refunds WHERE id = $1')).not.toBe(read);
  });

  it('names no new text past its limit, and keeps the names it gave', () => {
    const names = new StatementNames(2);
    const first = names.nameOf('SELECT $1');
    names.nameOf('SELECT $1, $2');
    expect(names.nameOf('SELECT $1, $2, $3')).toBeUndefined();
    expect(names.nameOf('SELECT $1')).toBe(first);
  });
});

describe('isStalePlan', () => {
  it('is PostgreSQL’s answer to a prepared SELECT * whose table changed shape, and nothing else', () => {
    expect(isStalePlan(Object.assign(new Error('cached plan must not change result type'), { code: '0A000' }))).toBe(true);
    expect(isStalePlan(Object.assign(new Error('cached plan must not change result type'), { code: '42P01' }))).toBe(false);
    expect(isStalePlan(Object.assign(new Error('other feature not supported'), { code: '0A000' }))).toBe(false);
    expect(isStalePlan(undefined)).toBe(false);
  });
});
