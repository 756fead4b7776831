import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { Type } from '@fastify/type-provider-typebox';
import { validatedSerializer } from './validated-serializer.js';

describe('the CLI API serializer', () => {
  it('sends answers that match their schema, and fails as a 500 on any that does not', async () => {
    const app = Fastify({ logger: false });
    app.setSerializerCompiler(validatedSerializer);
    const schema = { response: { 200: Type.Object({ ok: Type.Literal(true), count: Type.Integer() }, { additionalProperties: false }) } };
    app.get('/good', { schema }, () => ({ ok: true, count: 2 }));
    app.get('/bad', { schema }, () => ({ ok: true, count: 'two', secret: 'leak' }));
    const good = await app.inject('/good');
    expect([good.statusCode, good.body]).toEqual([200, '{"ok":true,"count":2}']);
    const bad = await app.inject('/bad');
    expect(bad.statusCode).toBe(500);
    expect(bad.body).not.toContain('leak');
    await app.close();
  });
});
