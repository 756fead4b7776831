import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AltchaChallenges, altchaKey } from './altcha-challenges.js';
import { checkCaptcha, separateSolutions, type CaptchaServices } from './captcha-check.js';
import { countLinks } from './links.js';
import { normalizeOrigins, postOriginAllowed } from './origins.js';
import { siteverify } from './siteverify.js';

describe('links in a submission', () => {
  it('count http://, https:// and www. once each, in every string, nested ones too', () => {
    expect(countLinks({ message: 'see https://www.a.example/x and www.b.example or http://c', name: 'Ann' })).toBe(3);
    expect(countLinks({ list: ['HTTPS://A.EXAMPLE', { deep: 'www.b.example' }], age: 3 })).toBe(2);
    expect(countLinks({ message: 'no links here: example.com' })).toBe(0);
  });

  it('counts what spam hides links as: other schemes, //host, bare host.tld/ and full-width letters', () => {
    expect(countLinks({ message: 'ftp://a.example //b.example/x c.example/path d.co.uk/ and mail me at ann@e.example' })).toBe(4);
    expect(countLinks({ message: 'ｈｔｔｐｓ：／／ｆ.example wWw.g.example' })).toBe(2);
    expect(countLinks({ message: 'and/or 3.5/10 a/b e.g. path/to' })).toBe(0);
  });
});

describe('allowed origins', () => {
  const hostnames = (): Promise<string[]> => Promise.resolve(['www.acme.example']);

  it('are written any, project, or a sorted list of origins', () => {
    expect(normalizeOrigins(' Any ')).toBe('any');
    expect(normalizeOrigins('project')).toBe('project');
    expect(normalizeOrigins('https://b.example/, https://A.example:443,https://b.example')).toBe('https://a.example,https://b.example');
    expect(() => normalizeOrigins('https://a.example/path')).toThrow(/scheme, host and port/);
    expect(() => normalizeOrigins('ftp://a.example')).toThrow(/not an origin/);
    expect(() => normalizeOrigins(',')).toThrow(/give any, project/);
  });

  it('let posts without Origin through, and with project the project\'s domains and local hosts', async () => {
    expect(await postOriginAllowed(undefined, 'project', hostnames)).toBe(true);
    expect(await postOriginAllowed('https://evil.example', 'any', hostnames)).toBe(true);
    expect(await postOriginAllowed('https://www.acme.example', 'project', hostnames)).toBe(true);
    expect(await postOriginAllowed('http://localhost:4321', 'project', hostnames)).toBe(true);
    expect(await postOriginAllowed('https://evil.example', 'project', hostnames)).toBe(false);
    expect(await postOriginAllowed('null', 'project', hostnames)).toBe(false);
    expect(await postOriginAllowed('https://a.example', 'https://a.example,https://b.example', hostnames)).toBe(true);
    expect(await postOriginAllowed('http://a.example', 'https://a.example', hostnames)).toBe(false);
  });
});

describe('siteverify', () => {
  let server: Server;
  let url: string;
  const seen: string[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push(body);
        const form = new URLSearchParams(body);
        const token = form.get('response');
        if (token === 'slow') return; // never answers
        if (token === 'broken') return void response.writeHead(502).end('bad gateway');
        if (token === 'huge') return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, padding: 'x'.repeat(70_000) }));
        const answer = token === 'good' ? { success: true } : form.get('secret') === 'wrong' ? { success: false, 'error-codes': ['invalid-input-secret'] } : { success: false, 'error-codes': ['invalid-input-response'] };
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('passes a token the provider vouches for, sending secret and response, never the visitor\'s address', async () => {
    expect(await siteverify({ url, secret: 's3cret', token: 'good' })).toBe('passed');
    expect(Object.fromEntries(new URLSearchParams(seen.at(-1)))).toEqual({ secret: 's3cret', response: 'good' });
  });

  it('fails a token the provider refuses, but gives no verdict when the secret is to blame', async () => {
    expect(await siteverify({ url, secret: 's3cret', token: 'bad' })).toBe('failed');
    expect(await siteverify({ url, secret: 'wrong', token: 'bad' })).toBe('unverified');
  });

  it('gives no verdict when the provider is unreachable, slow, broken or answers too much', async () => {
    expect(await siteverify({ url: 'http://127.0.0.1:9/siteverify', secret: 's', token: 'good' })).toBe('unverified');
    expect(await siteverify({ url, secret: 's', token: 'slow', timeoutMs: 100 })).toBe('unverified');
    expect(await siteverify({ url, secret: 's', token: 'broken' })).toBe('unverified');
    // An answer past 64 KiB is not read to its end, and gives no verdict.
    expect(await siteverify({ url, secret: 's', token: 'huge' })).toBe('unverified');
  });
});

describe('the captcha check', () => {
  const spent = new Set<string>();
  const verdicts: string[] = [];
  const services: CaptchaServices = {
    altcha: new AltchaChallenges(altchaKey(new Uint8Array(32).fill(1)), 1_000),
    spend: (digest) => Promise.resolve(spent.has(digest) ? false : (spent.add(digest), true)),
    siteverify: (request) => {
      verdicts.push(request.url);
      return Promise.resolve(request.token === 'good' ? 'passed' : request.token === 'down' ? 'unverified' : 'failed');
    },
    verifyUrls: { turnstile: 'https://turnstile.test', hcaptcha: 'https://hcaptcha.test' },
    now: () => Date.now(),
  };

  it('takes the solution fields out of what is stored', () => {
    expect(separateSolutions({ name: 'Ann', altcha: 'x', 'cf-turnstile-response': 't', 'h-captcha-response': 'h', 'g-recaptcha-response': 'g' })).toEqual({
      fields: { name: 'Ann' },
      solutions: { altcha: 'x', 'cf-turnstile-response': 't', 'h-captcha-response': 'h', 'g-recaptcha-response': 'g' },
    });
  });

  it('accepts an ALTCHA solution once', async () => {
    const { solveChallenge } = await import('altcha-lib/v1');
    const challenge = await services.altcha.create('form1', Date.now());
    const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber).promise;
    const altcha = Buffer.from(JSON.stringify({ ...challenge, number: solution!.number })).toString('base64');
    const form = { endpointId: 'form1', captcha: 'altcha' as const, secret: null };
    expect(await checkCaptcha(form, { altcha }, services)).toEqual({ outcome: 'passed' });
    expect(await checkCaptcha(form, { altcha }, services)).toMatchObject({ outcome: 'failed', message: expect.stringMatching(/used already/) });
    expect(await checkCaptcha(form, {}, services)).toMatchObject({ outcome: 'failed', message: 'the captcha was not solved' });
  });

  it('asks the form\'s provider, and keeps an unverifiable post for Spam', async () => {
    const turnstile = { endpointId: 'f', captcha: 'turnstile' as const, secret: 's' };
    expect(await checkCaptcha(turnstile, { 'cf-turnstile-response': 'good' }, services)).toEqual({ outcome: 'passed' });
    expect(verdicts.at(-1)).toBe('https://turnstile.test');
    expect(await checkCaptcha({ ...turnstile, captcha: 'hcaptcha' }, { 'h-captcha-response': 'down' }, services)).toEqual({ outcome: 'unverified' });
    expect(verdicts.at(-1)).toBe('https://hcaptcha.test');
    expect(await checkCaptcha(turnstile, { 'cf-turnstile-response': 'nope' }, services)).toMatchObject({ outcome: 'failed' });
    expect(await checkCaptcha(turnstile, {}, services)).toMatchObject({ outcome: 'failed' });
    expect(await checkCaptcha({ ...turnstile, secret: null }, { 'cf-turnstile-response': 'good' }, services)).toEqual({ outcome: 'unverified' });
    expect(await checkCaptcha({ ...turnstile, captcha: 'none' }, {}, services)).toEqual({ outcome: 'passed' });
  });
});
