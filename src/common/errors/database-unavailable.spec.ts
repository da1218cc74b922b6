import { DatabaseError } from 'pg';
import { QueryFailedError } from 'typeorm';
import { toAppError } from '../http/exception.filter';
import { databaseUnavailableReason, isDatabaseUnavailable } from './database-unavailable';

/** A PostgreSQL error as pg builds it from the server's ErrorResponse. */
function serverError(code: string, message: string): DatabaseError {
  return Object.assign(new DatabaseError(message, 0, 'error'), { code });
}

function errno(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code, errno: -1, syscall: 'connect' });
}

const failedStatement = (driverError: Error) => new QueryFailedError('SELECT 1', [], driverError);

describe('isDatabaseUnavailable', () => {
  it.each([
    ['the server shutting down (57P01 admin_shutdown), inside TypeORM’s wrapper', failedStatement(serverError('57P01', 'terminating connection due to administrator command'))],
    ['the server starting or stopping (57P03 cannot_connect_now)', serverError('57P03', 'the database system is shutting down')],
    ['the server crashed (57P02)', serverError('57P02', 'terminating connection because of crash of another server process')],
    ['a connection exception (class 08)', serverError('08006', 'connection failure')],
    ['no connection slot left (53300)', serverError('53300', 'sorry, too many clients already')],
    ['a refused connection', errno('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset connection, inside TypeORM’s wrapper', failedStatement(errno('ECONNRESET', 'read ECONNRESET'))],
    [
      'every address of a name refusing (Node’s AggregateError)',
      Object.assign(new AggregateError([errno('ECONNREFUSED', 'connect ECONNREFUSED ::1:5432'), errno('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')]), {
        code: 'ECONNREFUSED',
      }),
    ],
    ['pg’s lost connection', failedStatement(new Error('Connection terminated unexpectedly'))],
    ['pg’s connect timeout', new Error('Connection terminated due to connection timeout')],
    ['pg-pool’s connect timeout', new Error('timeout exceeded when trying to connect')],
  ])('is true for %s', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', failedStatement(serverError('23505', 'duplicate key value violates unique constraint'))],
    ['a protocol violation (a bug, not an outage)', serverError('08P01', 'invalid message format')],
    ['a statement timeout', serverError('57014', 'canceling statement due to statement timeout')],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a message that only mentions a connection', Object.assign(new Error('Connection terminated'), { code: 'ERR_SOMETHING_ELSE' })],
    ['nothing', undefined],
  ])('is false for %s', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('names the reason in one line for the outage log', () => {
    expect(databaseUnavailableReason(failedStatement(serverError('57P01', 'terminating connection due to administrator command')))).toBe(
      '57P01: terminating connection due to administrator command',
    );
    expect(databaseUnavailableReason(errno('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'))).toBe('ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:5432');
    const everyAddress = Object.assign(new AggregateError([errno('ECONNREFUSED', 'connect ECONNREFUSED ::1:5432')]), { code: 'ECONNREFUSED' });
    expect(databaseUnavailableReason(everyAddress)).toBe('ECONNREFUSED: connect ECONNREFUSED ::1:5432');
    expect(databaseUnavailableReason(new Error('boom'))).toBeUndefined();
  });
});

describe('toAppError for a database that is unreachable', () => {
  it('is 503 SERVICE_UNAVAILABLE with Retry-After, keeping the cause; other failures stay 500', () => {
    const refused = errno('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432');
    const answer = toAppError(refused);
    expect({ code: answer.code, status: answer.status, headers: answer.headers, cause: answer.cause }).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      headers: { 'retry-after': expect.stringMatching(/^[1-9]\d*$/) },
      cause: refused,
    });
    expect(toAppError(failedStatement(serverError('23505', 'duplicate key'))).code).toBe('INTERNAL_ERROR');
  });
});
