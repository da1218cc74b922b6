// The one FakeClock is src/testing's (unit specs need it too); this path stays while the integration specs still import it.
export { FakeClock } from '../../src/testing/fake-clock';
