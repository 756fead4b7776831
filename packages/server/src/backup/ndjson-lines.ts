/** The lines of an NDJSON stream, each without its newline; a last line without one too. */
export async function* ndjsonLines(content: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of content) {
    let buffer = rest.length === 0 ? Buffer.from(chunk) : Buffer.concat([rest, chunk]);
    for (let end = buffer.indexOf(10); end !== -1; end = buffer.indexOf(10)) {
      yield buffer.subarray(0, end).toString('utf8');
      buffer = buffer.subarray(end + 1);
    }
    rest = buffer;
  }
  if (rest.length > 0) yield rest.toString('utf8');
}
