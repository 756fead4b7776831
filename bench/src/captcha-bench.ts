import { randomBytes } from 'node:crypto';
import { solveChallenge } from 'altcha-lib/v1';
import { AltchaChallenges, altchaKey, parseEncryptionKey, updateFormSettings } from '@svc/server/testing';
import { adminPrincipal, type BackendName, createBackend, createForm, operationContext, quantiles, startSvc } from '@svc/testkit';
import type { LoadRunResult } from './load-runner.js';
import { runLoadProcess } from './processes.js';
import type { LoadSettings } from './endpoint-bench.js';

export interface CaptchaFigures {
  /** `GET /api/f/{id}/challenge` under load, its rate limit raised out of the way. */
  readonly challenge: Pick<LoadRunResult, 'requestsPerSecond' | 'latencyMs' | 'statusCodes' | 'errors'>;
  /** In process, median of many: making a challenge, and checking a solved one (one hash, one HMAC). */
  readonly createUs: number;
  readonly verifyUs: number;
  /** Sequential JSON posts on SQLite, answer time p50 / p90: a form without captcha, and one with ALTCHA (solved beforehand). */
  readonly post: { readonly samples: number; readonly plainMs: { p50: number; p90: number }; readonly altchaMs: { p50: number; p90: number } };
}

const micro = async (runs: number, step: () => Promise<unknown>): Promise<number> => {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await step();
    times.push((performance.now() - started) * 1000);
  }
  return quantiles(times)(0.5);
};

/**
 * ALTCHA's cost to the server (docs/form-endpoint.md, "ALTCHA"): challenges per second, the
 * microseconds of making and checking one, and what a post with a solution costs beside one
 * without (the solution spent in the store is the difference beyond the hash and HMAC).
 */
export async function benchCaptcha(settings: LoadSettings, samples: number, kind: BackendName = 'sqlite'): Promise<CaptchaFigures> {
  const key = randomBytes(32).toString('base64');
  const challenges = new AltchaChallenges(altchaKey(parseEncryptionKey(key)), 1_000);
  const createUs = await micro(2_000, () => challenges.create('bench', Date.now()));
  const sample = await challenges.create('bench', Date.now());
  const solved = { ...sample, number: (await solveChallenge(sample.challenge, sample.salt, sample.algorithm, sample.maxnumber).promise)!.number };
  const verifyUs = await micro(2_000, () => challenges.verify(solved, 'bench', Date.now()));

  const backend = await createBackend(kind);
  const store = await backend.openStore();
  try {
    const plain = await createForm(store);
    const guarded = await createForm(store, { workspace: plain.workspace });
    const context = operationContext(store, { dataDir: backend.dataDir, encryptionKey: parseEncryptionKey(key) });
    await updateFormSettings(context, adminPrincipal, { workspace: guarded.workspace, project: guarded.project, slug: guarded.slug, captcha: 'altcha' });
    const server = await startSvc({
      args: [...backend.serverArgs, '--rate-limit', '1000000/1h', '--challenge-rate-limit', '1000000/1h', '--altcha-max-number', '1000'],
      env: { SVC_ENCRYPTION_KEY: key },
      nodeArgs: settings.nodeArgs,
    });
    try {
      const challengeUrl = `${server.url}/api/f/${guarded.endpointId}/challenge`;
      const host = new URL(server.url).host;
      await runLoadProcess({ url: challengeUrl, shape: 'json', connections: settings.connections, durationSeconds: settings.warmupSeconds, tag: 'warm', get: { host } });
      const run = await runLoadProcess({ url: challengeUrl, shape: 'json', connections: settings.connections, durationSeconds: settings.durationSeconds, tag: 'run', get: { host } });

      const post = async (endpointId: string, body: Record<string, unknown>): Promise<number> => {
        const started = performance.now();
        const answer = await fetch(`${server.url}/api/f/${endpointId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        await answer.arrayBuffer();
        if (answer.status !== 200) throw new Error(`a bench post was answered ${answer.status}`);
        return performance.now() - started;
      };
      const payloads: string[] = [];
      for (let n = 0; n < samples; n++) {
        const challenge = (await (await fetch(challengeUrl)).json()) as Awaited<ReturnType<AltchaChallenges['create']>>;
        const { number } = (await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber).promise)!;
        payloads.push(Buffer.from(JSON.stringify({ ...challenge, number })).toString('base64'));
      }
      const plainTimes: number[] = [];
      const altchaTimes: number[] = [];
      for (let n = 0; n < samples; n++) {
        plainTimes.push(await post(plain.endpointId, { email: 'ada@example.com', message: 'hello' }));
        altchaTimes.push(await post(guarded.endpointId, { email: 'ada@example.com', message: 'hello', altcha: payloads[n] }));
      }
      const of = (times: number[]) => {
        const at = quantiles(times);
        return { p50: at(0.5), p90: at(0.9) };
      };
      return {
        challenge: { requestsPerSecond: run.requestsPerSecond, latencyMs: run.latencyMs, statusCodes: run.statusCodes, errors: run.errors },
        createUs,
        verifyUs,
        post: { samples, plainMs: of(plainTimes), altchaMs: of(altchaTimes) },
      };
    } finally {
      await server.stop();
    }
  } finally {
    await store.close();
    await backend.cleanup();
  }
}
