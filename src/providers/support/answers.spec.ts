import { httpFailure, jsonObjectOf, problemOf, unexpectedAnswer } from './answers';
import type { OutboundAnswer } from '../transport/transport';

describe('reading PSP errors', () => {
  const answer = (status: number, body: unknown): OutboundAnswer => ({ status, headers: {}, text: typeof body === 'string' ? body : JSON.stringify(body) });

  it("reads an RFC 7807 problem: its code is the type's last segment, its words the title and detail", () => {
    const error = httpFailure(
      'Efí: create charge',
      answer(400, { type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida', title: 'Cobrança inválida.', status: 400, detail: 'O campo cob.valor.original é zero.' }),
    );
    expect(error).toMatchObject({
      kind: 'http',
      upstreamStatus: 400,
      providerCode: 'CobOperacaoInvalida',
      providerMessage: 'Cobrança inválida.: O campo cob.valor.original é zero.',
      message: 'Efí: create charge: HTTP 400 CobOperacaoInvalida',
    });
    expect(error.ambiguous).toBe(false);
  });

  it("carries the problem's violacoes (what was refused, and why) into its words", () => {
    const problem = {
      type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida',
      title: 'Cobrança inválida.',
      status: 400,
      detail: 'A requisição não respeita o schema.',
      violacoes: [{ razao: 'O campo não respeita o schema.', propriedade: 'cob.devedor.cpf', valor: '123' }, { razao: 'Valor zero.', propriedade: 'cob.valor.original' }, 'junk'],
    };
    expect(problemOf(problem)).toEqual({
      code: 'CobOperacaoInvalida',
      message: 'Cobrança inválida.: A requisição não respeita o schema. (cob.devedor.cpf: O campo não respeita o schema.; cob.valor.original: Valor zero.)',
      violations: [
        { property: 'cob.devedor.cpf', reason: 'O campo não respeita o schema.' },
        { property: 'cob.valor.original', reason: 'Valor zero.' },
      ],
    });
    expect(problemOf({ ...problem, detail: undefined, violacoes: [{ razao: 'Sem propriedade.' }] }).message).toBe('Cobrança inválida. (Sem propriedade.)');
  });

  it('gives no code for about:blank problems, and keeps the title', () => {
    expect(problemOf({ type: 'about:blank', title: 'Unauthorized', status: 401 })).toEqual({ code: undefined, message: 'Unauthorized' });
  });

  it("reads OAuth2 errors and Banco do Brasil's two shapes", () => {
    expect(problemOf({ error: 'invalid_client', error_description: 'unknown client' })).toEqual({ code: 'invalid_client', message: 'unknown client' });
    expect(problemOf({ erros: [{ codigo: 4769515, versao: '1', mensagem: 'Txid inválido.', ocorrencia: 'x' }] })).toEqual({ code: '4769515', message: 'Txid inválido.' });
    expect(problemOf({ statusCode: 401, error: 'Unauthorized', message: 'Bad Credentials' })).toEqual({ code: 'Unauthorized', message: 'Bad Credentials' });
  });

  it('cuts long provider text', () => {
    expect(problemOf({ title: 'x'.repeat(1000) }).message).toHaveLength(300);
  });

  it('carries no code for a body that is not JSON, and says 5xx are ambiguous', () => {
    const error = httpFailure('Test', answer(503, '<html>Service Unavailable</html>'));
    expect(error).toMatchObject({ kind: 'http', upstreamStatus: 503, providerCode: undefined, providerMessage: undefined });
    expect(error.ambiguous).toBe(true);
  });

  it('calls an unexpected 2xx malformed, and anything else http', () => {
    expect(unexpectedAnswer('Test', answer(204, ''))).toMatchObject({ kind: 'malformed', upstreamStatus: 204 });
    expect(unexpectedAnswer('Test', answer(404, { title: 'Não encontrado' }))).toMatchObject({ kind: 'http', upstreamStatus: 404 });
  });

  it('calls a body that is not a JSON object malformed', () => {
    expect(() => jsonObjectOf('Test', answer(200, '{"resultado": <html>'))).toThrow(expect.objectContaining({ kind: 'malformed' }));
    expect(() => jsonObjectOf('Test', answer(200, [1, 2]))).toThrow(expect.objectContaining({ kind: 'malformed' }));
    expect(jsonObjectOf('Test', answer(200, { a: 1 }))).toEqual({ a: 1 });
  });
});
