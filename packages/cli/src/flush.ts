import type { Writable } from 'node:stream';

/**
 * Resolves once everything written to the stream so far has been handed to the operating
 * system. An empty write's callback runs after every earlier chunk is written, so this also
 * covers output still queued for a pipe, which process.exit() would otherwise drop.
 */
export function flush(stream: Writable): Promise<void> {
  if (stream.destroyed || stream.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    stream.write('', () => resolve());
  });
}
