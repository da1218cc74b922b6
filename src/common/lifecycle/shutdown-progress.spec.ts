import { closeReserveMs, DELIVERIES, exitReserveMs, REQUESTS, ShutdownProgress } from './shutdown-progress';

describe('ShutdownProgress', () => {
  it('gives requests and deliveries the deadline less what closing and exiting need', () => {
    const progress = new ShutdownProgress();
    expect(progress.workMsLeft(0)).toBe(Infinity);
    progress.begin(10_000, 10_000);
    expect(exitReserveMs(10_000)).toBe(250);
    expect(closeReserveMs(10_000)).toBe(1_000);
    expect(progress.workMsLeft(0)).toBe(8_750);
    expect(progress.closeMsLeft(0)).toBe(9_750);
    expect(progress.msLeft(9_000)).toBe(1_000);
    expect(progress.workMsLeft(9_000)).toBe(0);
    // A short timeout keeps proportionally less.
    progress.begin(0, 0); // a second begin changes nothing
    expect(progress.msLeft(0)).toBe(10_000);
    const short = new ShutdownProgress();
    short.begin(1_500, 1_500);
    expect(short.workMsLeft(0)).toBe(1_500 - 150 - 375);
  });

  it('names what is abandoned: counts given up or still under way, and the stages not finished', () => {
    const progress = new ShutdownProgress();
    expect(progress.abandoned()).toEqual([]);
    let inFlight = 2;
    progress.track(DELIVERIES, () => inFlight);
    progress.begin(1_000, 1_000);
    expect(progress.abandoned()).toEqual(['2 deliveries', 'the database close']);
    progress.giveUp(REQUESTS, 1);
    progress.enter('stopping');
    // The deliveries in flight are what holds the stop up.
    expect(progress.abandoned()).toEqual(['1 request', '2 deliveries', 'the database close']);
    inFlight = 0;
    expect(progress.abandoned()).toEqual(['1 request', 'the background jobs', 'the database close']);
    progress.enter('closing-database');
    progress.enter('stopping'); // never back
    expect(progress.abandoned()).toEqual(['1 request', 'the database close']);
    progress.enter('closed');
    expect(progress.abandoned()).toEqual(['1 request']);
  });

  it('keeps the count given up, not the live one, for work it stopped waiting for', () => {
    const progress = new ShutdownProgress();
    let inFlight = 1;
    progress.track(DELIVERIES, () => inFlight);
    progress.begin(1_000, 1_000);
    progress.giveUp(DELIVERIES, 1);
    inFlight = 0;
    progress.enter('closed');
    expect(progress.abandoned()).toEqual(['1 delivery']);
  });
});
