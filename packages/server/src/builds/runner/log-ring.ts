/** How much of a build's output is kept: the last 1 MiB (docs/hosting.md). */
export const buildLogLimitBytes = 1024 * 1024;

/**
 * The last `limitBytes` of a text stream, in UTF-8 bytes. Chunks are kept whole until the
 * total passes the limit; then the oldest are dropped and the first kept one is cut at a
 * character boundary, so memory stays bounded however much a build prints.
 */
export class LogRing {
  private chunks: Buffer[] = [];
  private bytes = 0;

  constructor(private readonly limitBytes: number = buildLogLimitBytes) {}

  append(text: string): void {
    if (text === '') return;
    let chunk = Buffer.from(text, 'utf8');
    if (chunk.length > this.limitBytes) {
      chunk = chunk.subarray(chunk.length - this.limitBytes);
    }
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    while (this.bytes > this.limitBytes) {
      const first = this.chunks[0]!;
      const excess = this.bytes - this.limitBytes;
      if (first.length <= excess) {
        this.chunks.shift();
        this.bytes -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.bytes -= excess;
      }
    }
  }

  /** The kept text; a character cut at the start is dropped, never shown as U+FFFD. */
  text(): string {
    const all = Buffer.concat(this.chunks);
    let start = 0;
    // Skip UTF-8 continuation bytes (10xxxxxx) left from a cut character.
    while (start < all.length && start < 4 && (all[start]! & 0xc0) === 0x80) start += 1;
    return all.subarray(start).toString('utf8');
  }

  /** The last `count` lines, for a failure's message. */
  tail(count: number): string {
    const lines = this.text().replace(/\n+$/, '').split('\n');
    return lines.slice(-count).join('\n');
  }
}
