import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readPaced } from './paced-reader.js';

describe('reading a build\'s output', () => {
  it('takes everything waiting in one read, then pauses, and delivers every byte in order', async () => {
    const stream = new PassThrough();
    const reads: string[] = [];
    const lines = Array.from({ length: 2_000 }, (_, index) => `line ${index}\n`);
    for (const line of lines) stream.write(line);
    let ended = false;
    stream.on('end', () => (ended = true));
    readPaced(stream, (text) => reads.push(text), 5);
    for (const line of lines) stream.write(line);
    stream.end();
    await expect.poll(() => ended, { timeout: 5_000 }).toBe(true);
    expect(reads.join('')).toBe(lines.join('') + lines.join(''));
    // 4,000 writes arrive as a handful of reads, not one each.
    expect(reads.length).toBeLessThan(20);
  });

  it('keeps a character split between two reads whole', async () => {
    const stream = new PassThrough();
    const reads: string[] = [];
    readPaced(stream, (text) => reads.push(text), 1);
    const bytes = Buffer.from('zoë 東京', 'utf8');
    stream.write(bytes.subarray(0, 3));
    await new Promise((resolve) => setTimeout(resolve, 10));
    stream.end(bytes.subarray(3));
    await new Promise((resolve) => stream.on('end', resolve));
    expect(reads.join('')).toBe('zoë 東京');
    expect(reads.some((text) => text.includes('\ufffd'))).toBe(false);
  });

  it('delivers what a child writes while reading pauses, before its streams close', async () => {
    const child = spawn(process.execPath, ['-e', "process.stdout.write('a'.repeat(3000)); setTimeout(() => console.log('B'), 5); setTimeout(() => console.log('C'), 10)"], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    readPaced(child.stdout, (text) => (out += text), 50);
    readPaced(child.stderr, (text) => (out += text), 50);
    await new Promise((resolve) => child.on('close', resolve));
    expect(out).toBe(`${'a'.repeat(3000)}B\nC\n`);
  });
});
