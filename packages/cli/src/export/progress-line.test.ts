import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ProgressLine } from './progress-line.js';

function stream(isTTY: boolean): PassThrough & { isTTY: boolean; text(): string } {
  const chunks: string[] = [];
  const passThrough = Object.assign(new PassThrough(), { isTTY, text: () => chunks.join('') });
  passThrough.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  return passThrough;
}

describe('the export progress line', () => {
  it('draws nothing when stderr is not a terminal', () => {
    const stderr = stream(false);
    const progress = new ProgressLine(stderr, 10);
    for (let done = 1; done <= 10; done++) progress.update(done);
    progress.finish();
    expect(stderr.text()).toBe('');
  });

  it('redraws one line at most every interval on a terminal, always the last count, then clears it', () => {
    const stderr = stream(true);
    let now = 0;
    const progress = new ProgressLine(stderr, 3, () => now, 100);
    progress.update(1);
    now = 50;
    progress.update(2);
    now = 60;
    progress.update(3);
    progress.finish();
    expect(stderr.text()).toBe('\r\u001b[2Kexported 1 of 3 submissions\r\u001b[2Kexported 3 of 3 submissions\r\u001b[2K');
  });
});
