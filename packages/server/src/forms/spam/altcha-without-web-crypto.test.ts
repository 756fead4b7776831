import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

interface Solver {
  addEventListener(type: 'message', listener: (event: { data: { number: number; worker: boolean } | null }) => void): void;
  postMessage(message: unknown): void;
}

const shimPath = fileURLToPath(new URL('../../../assets/altcha/without-web-crypto.js', import.meta.url));

/** Runs the appended solver as a page would, with the globals a browser gives a plain-http page (no crypto.subtle). */
async function pageWithout(crypto: object): Promise<{ altchaCreateWorker?: () => Solver }> {
  const page: Record<string, unknown> = { crypto, TextEncoder, EventTarget, MessageEvent, setTimeout };
  page['globalThis'] = page;
  runInNewContext(await readFile(shimPath, 'utf8'), page);
  return page;
}

const solve = (solver: Solver, work: { algorithm: string; challenge: string; salt: string }, start: number, max: number) =>
  new Promise<{ number: number } | null>((resolve) => {
    solver.addEventListener('message', (event) => resolve(event.data));
    solver.postMessage({ type: 'work', payload: work, start, max });
  });

describe('the ALTCHA solver for pages without Web Crypto', () => {
  it('finds the number of a SHA-256 challenge as the widget\'s worker would, for salts of one and of two blocks', async () => {
    const page = await pageWithout({ getRandomValues: () => undefined });
    for (const [salt, number] of [[randomBytes(12).toString('hex'), 1_234], [`${randomBytes(30).toString('hex')}?expires=1893456000`, 4_321], ['', 0], ['ü'.repeat(40), 77]] as const) {
      const challenge = createHash('sha256').update(`${salt}${number}`).digest('hex');
      expect(await solve(page.altchaCreateWorker!(), { algorithm: 'SHA-256', challenge, salt }, 0, 5_000)).toMatchObject({ number, worker: true });
    }
  });

  it('answers null outside its share, after an abort, and for another algorithm', async () => {
    const page = await pageWithout({});
    const challenge = createHash('sha256').update('salt42').digest('hex');
    expect(await solve(page.altchaCreateWorker!(), { algorithm: 'SHA-256', challenge, salt: 'salt' }, 100, 200)).toBeNull();
    expect(await solve(page.altchaCreateWorker!(), { algorithm: 'SHA-512', challenge, salt: 'salt' }, 0, 100)).toBeNull();
    const aborted = page.altchaCreateWorker!();
    const answer = solve(aborted, { algorithm: 'SHA-256', challenge: 'f'.repeat(64), salt: 'salt' }, 0, 1_000_000);
    aborted.postMessage({ type: 'abort' });
    expect(await answer).toBeNull();
  });

  it('leaves a page with Web Crypto to the widget\'s own workers', async () => {
    const page = await pageWithout({ subtle: { digest: () => undefined } });
    expect(page.altchaCreateWorker).toBeUndefined();
  });
});
