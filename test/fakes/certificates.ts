// The one test PKI is src/testing's (unit specs need it too); this path stays while the integration specs still import it.
export * from '../../src/testing/certificates';
