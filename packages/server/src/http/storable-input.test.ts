import { describe, expect, it } from 'vitest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceError } from '@svc/protocol';
import { refuseUnstorableInput } from './storable-input.js';

const refusal = (input: Partial<FastifyRequest>): Promise<string | null> =>
  new Promise((resolve) =>
    refuseUnstorableInput(input as FastifyRequest, {} as FastifyReply, (error?: Error) =>
      resolve(error === undefined ? null : `${(error as ServiceError).code}: ${error.message}`),
    ),
  );

describe('input a store cannot hold', () => {
  it('lets ordinary input through', async () => {
    expect(await refusal({ body: { name: 'Ada', list: [{ a: 1 }, 'x'] }, query: { limit: '5' }, params: { id: 'p' } })).toBeNull();
  });

  it('refuses NUL characters in values and keys, naming where', async () => {
    expect(await refusal({ body: { forms: [{ name: 'a\u0000b' }] } })).toBe('invalid_body: body/forms/0/name must not contain NUL characters');
    expect(await refusal({ body: { ['k\u0000']: 1 } })).toBe('invalid_body: body has a key with a NUL character');
    expect(await refusal({ query: { cursor: '\u0000' } })).toBe('invalid_body: query/cursor must not contain NUL characters');
  });

  it('refuses unpaired surrogates, which no backend stores as sent, in values and keys', async () => {
    expect(await refusal({ body: { name: 'half \ud800 a pair' } })).toBe('invalid_body: body/name must not contain unpaired surrogates (text that is not Unicode)');
    expect(await refusal({ body: { ['\udc00']: 1 } })).toBe('invalid_body: body has a key with an unpaired surrogate');
    expect(await refusal({ params: { id: 'a\u0000' } })).toBe('invalid_body: params/id must not contain NUL characters');
    expect(await refusal({ body: { name: 'a whole pair: \ud83d\ude00' } })).toBeNull();
  });

  it('refuses input nested more than 64 levels deep without recursing', async () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(await refusal({ body: deep })).toBe('invalid_body: body is nested more than 64 levels deep');
    let fine: unknown = 'leaf';
    for (let i = 0; i < 63; i++) fine = [fine];
    expect(await refusal({ body: fine })).toBeNull();
  });
});
