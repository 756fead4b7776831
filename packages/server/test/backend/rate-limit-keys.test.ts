import { describe, expect, it } from 'vitest';
import { useBackendSuite } from '@svc/testkit/vitest';
import { createForm, postJson, selectBackend } from '@svc/testkit';

const backend = await selectBackend();

// Regression of the adversarial test: a flood of distinct client "addresses" grew the
// limiter (and its snapshots) without bound. The limiters now count at most
// --rate-limit-keys clients in their windows; newcomers past it share one counter.
describe.runIf(backend.available)(`the rate limiters under a flood of client addresses on ${backend.name}`, () => {
  const suite = useBackendSuite({ args: ['--trust-proxy', '--rate-limit-keys', '5'] });

  it('counts each known client on its own, and clients past the budget together under one shared limit', async () => {
    const form = await createForm(suite.store, { rateLimit: { max: 2, windowSeconds: 300 } });
    const url = `${suite.server.url}/api/f/${form.endpointId}`;
    const post = async (client: string) => (await postJson(url, {}, { 'x-forwarded-for': client })).status;

    for (let i = 1; i <= 5; i++) {
      expect(await post(`198.51.100.${i}`)).toBe(200);
      expect(await post(`198.51.100.${i}`)).toBe(200);
    }
    // Three newcomers: together they have the limit of one client.
    expect([await post('203.0.113.1'), await post('203.0.113.2'), await post('203.0.113.3')]).toEqual([200, 200, 429]);
    // Known clients keep their own counts.
    expect(await post('198.51.100.1')).toBe(429);
  });
});
