import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** How long reading a build's output pauses after each read (docs/hosting.md, "Build logs"). */
export const outputPauseMs = 25;

/**
 * Reads a child's output coarsely: everything waiting is taken in one read, then reading
 * pauses `pauseMs`, so a build that prints without end costs the server at most one read per
 * pause and stream, however small its writes; while reading pauses, the pipe fills and the
 * build waits to write. Text is decoded across reads (a character split between two reads
 * is whole). Every byte is delivered, in order, before `onEnd`.
 */
export function readPaced(stream: Readable, onText: (text: string) => void, pauseMs: number = outputPauseMs): void {
  const decoder = new StringDecoder('utf8');
  let pausing = false;
  // One 'readable' listener for good (removing it can set the stream flowing, into nothing);
  // while reading pauses, what arrives waits in the stream and the pipe.
  const take = (): void => {
    if (pausing) return;
    const chunk = stream.read() as Buffer | null;
    if (chunk === null) return;
    const text = decoder.write(chunk);
    if (text !== '') onText(text);
    pausing = true;
    setTimeout(() => {
      pausing = false;
      take();
    }, pauseMs).unref();
  };
  stream.on('readable', take);
  stream.on('end', () => {
    const rest = decoder.end();
    if (rest !== '') onText(rest);
  });
}
