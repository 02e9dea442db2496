// The client's pacing and retries, against hand-written faults (429, 503, a spent budget) and a
// clock that only moves when the client sleeps, so the waits are checked without being waited.
import { describe, expect, it } from 'vitest';
import { GateError, createClient } from './client';
import type { FetchLike } from './client';
import type { Clock } from './pacer';

function fakeClock(): Clock & { slept: number[] } {
  let time = 1_000_000;
  const slept: number[] = [];
  return {
    slept,
    now: () => time,
    sleep: async (ms) => {
      slept.push(ms);
      time += ms;
    },
  };
}

const json = (status: number, headers: Record<string, string> = {}) =>
  Response.json({ data: [], status }, { status, headers });

describe('the client', () => {
  it('waits out a 429’s Retry-After before any other request goes out', async () => {
    const clock = fakeClock();
    const log: string[] = [];
    let first = true;
    const fetchFake: FetchLike = async (url) => {
      log.push(`${new URL(url).pathname} at ${clock.now()}`);
      if (first) {
        first = false;
        return json(429, { 'Retry-After': '7', 'X-RateLimit-Remaining': '0' });
      }
      return json(200, { 'X-RateLimit-Remaining': '5' });
    };
    const client = createClient({ base: 'http://svc.test', key: 'k'.repeat(12), fetch: fetchFake, clock });
    await Promise.all([client.call({ path: ['a'] }), client.call({ path: ['b'] })]);
    expect(log[0]).toBe('/api/v1/a at 1000000');
    expect(log.slice(1).sort()).toEqual(['/api/v1/a at 1007000', '/api/v1/b at 1007000']);
  });

  it('never has more requests in flight than X-RateLimit-Remaining allows', async () => {
    let inFlight = 0;
    let most = 0;
    const fetchFake: FetchLike = async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      return json(200, { 'X-RateLimit-Remaining': '1' });
    };
    const client = createClient({ base: 'http://svc.test', key: 'k'.repeat(12), fetch: fetchFake, clock: fakeClock() });
    await client.call({ path: ['first'] });
    await Promise.all(Array.from({ length: 5 }, (_, i) => client.call({ path: [i] })));
    expect(most).toBe(1);
  });

  it('retries a 503 after its Retry-After, and gives up on a wait longer than two minutes', async () => {
    const clock = fakeClock();
    const answers = [json(503, { 'Retry-After': '3' }), json(200)];
    const client = createClient({ base: 'http://svc.test', key: 'k'.repeat(12), fetch: async () => answers.shift()!, clock });
    await expect(client.call({ path: ['x'] })).resolves.toMatchObject({ status: 200 });
    expect(clock.slept).toEqual([3000]);

    const limited = createClient({ base: 'http://svc.test', key: 'k'.repeat(12), fetch: async () => json(429, { 'Retry-After': '3600' }), clock });
    await expect(limited.call({ path: ['x'] })).rejects.toThrow(new GateError('GET /api/v1/x: the service asks to wait 3600 s (429); try the gate again later.'));
  });

  it('sends the key as a Bearer token and asks for JSON', async () => {
    let headers: Record<string, string> = {};
    const client = createClient({
      base: 'http://svc.test',
      key: 'secret-key-1234',
      fetch: async (_url, init) => {
        headers = init.headers as Record<string, string>;
        return json(200);
      },
      clock: fakeClock(),
    });
    await client.call({ path: ['reports'] });
    expect(headers).toMatchObject({ Authorization: 'Bearer secret-key-1234', Accept: 'application/json' });
  });
});
