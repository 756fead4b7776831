import { describe, expect, it } from 'vitest';
import { checkWebhookUrl } from './webhook-url.js';

describe('checkWebhookUrl', () => {
  it.each([
    ['https://hooks.example.com/svc', 'https://hooks.example.com/svc'],
    ['http://hooks.example.com:8080/a?b=c', 'http://hooks.example.com:8080/a?b=c'],
    ['  https://Hooks.Example.com/x#frag ', 'https://hooks.example.com/x'],
    ['https://8.8.8.8/hook', 'https://8.8.8.8/hook'],
    ['http://localhost:3000/hook', 'http://localhost:3000/hook'],
  ])('accepts %j as %j', (input, url) => {
    expect(checkWebhookUrl(input, { allowPrivateTargets: false })).toEqual({ ok: true, url });
  });

  it.each([
    ['', /is required/],
    ['hooks.example.com/svc', /absolute http/],
    ['ftp://hooks.example.com/', /http:\/\/ or https:\/\//],
    ['javascript:alert(1)', /http:\/\/ or https:\/\//],
    ['https://user:pass@hooks.example.com/', /user name or password/],
    [`https://hooks.example.com/${'a'.repeat(2100)}`, /at most 2048/],
    ['http://127.0.0.1:8080/hook', /loopback address \(127\.0\.0\.1\)/],
    ['http://[::1]/hook', /loopback address \(::1\)/],
    ['http://10.1.2.3/hook', /private address/],
    ['http://169.254.169.254/latest/meta-data', /cloud metadata address/],
    ['http://[::ffff:192.168.0.1]/', /private address/],
  ])('refuses %j', (input, problem) => {
    const result = checkWebhookUrl(input, { allowPrivateTargets: false });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toMatch(problem);
  });

  it('lets private IP literals through when private targets are allowed', () => {
    expect(checkWebhookUrl('http://127.0.0.1:8080/hook', { allowPrivateTargets: true })).toEqual({ ok: true, url: 'http://127.0.0.1:8080/hook' });
  });
});
