import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ByteBudget } from './byte-budget.js';
import { readSpooledBody, SpooledBodyTooLarge, SpoolFull } from './spooled-body.js';

const chunks = (...parts: string[]): AsyncIterable<Uint8Array> => Readable.from(parts.map((part) => Buffer.from(part)));

describe('readSpooledBody', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'spooled-body-'));
  });
  afterEach(() => rm(directory, { recursive: true, force: true }));

  const options = (budget = new ByteBudget(1_000)) => ({ directory, memoryBytes: 8, limitBytes: 100, budget });

  it('holds a small body in memory and shows every chunk to the observer', async () => {
    const seen: string[] = [];
    const body = await readSpooledBody(chunks('abc', 'def'), options(), (chunk) => seen.push(Buffer.from(chunk).toString()));
    expect(seen).toEqual(['abc', 'def']);
    expect((await body.bytes()).toString()).toBe('abcdef');
    expect(await readdir(directory)).toEqual([]);
    await body.release();
  });

  it('spools a body past its memory share to a file, counted in the budget until released', async () => {
    const budget = new ByteBudget(1_000);
    const body = await readSpooledBody(chunks('abcdef', 'ghijkl', 'mn'), options(budget), () => undefined);
    expect(body.size).toBe(14);
    expect(await readdir(directory)).toHaveLength(1);
    expect(budget.inUse).toBe(14);
    expect((await body.bytes()).toString()).toBe('abcdefghijklmn');
    await body.release();
    await body.release();
    expect(await readdir(directory)).toEqual([]);
    expect(budget.inUse).toBe(0);
  });

  it('stops past the limit and past the budget, leaving nothing behind', async () => {
    const budget = new ByteBudget(20);
    await expect(readSpooledBody(chunks('x'.repeat(60), 'y'.repeat(60)), options(), () => undefined)).rejects.toBeInstanceOf(SpooledBodyTooLarge);
    await expect(readSpooledBody(chunks('x'.repeat(15), 'y'.repeat(15)), options(budget), () => undefined)).rejects.toBeInstanceOf(SpoolFull);
    expect(await readdir(directory)).toEqual([]);
    expect(budget.inUse).toBe(0);
  });
});
