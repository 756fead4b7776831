import fc from 'fast-check';

/** One generated request, as raw bytes, and what kind of bad input it is. */
export interface FuzzCase {
  readonly kind: FuzzKind;
  /** A short description of the request, for reports. */
  readonly label: string;
  /** The request line and header lines (no final blank line). */
  readonly head: Buffer;
  readonly body: Buffer;
  /** Whether a 200 may come back for this request (well-formed enough to be stored). */
  readonly mayBeAccepted: boolean;
}

export const fuzzKinds = [
  'broken-json',
  'deep-nesting',
  'huge-body',
  'empty-body',
  'content-type',
  'multipart-boundary',
  'multipart-oversized',
  'file-name',
  'invalid-utf8',
  'header-injection',
  'path-and-method',
] as const;
export type FuzzKind = (typeof fuzzKinds)[number];

/** The limits the fuzzed server runs with (flags of `svc serve`), lowered so oversized requests stay cheap. */
export const fuzzLimits = { jsonBody: 256 * 1024, fileSize: 32 * 1024, files: 3, fields: 20, multipartBody: 96 * 1024 };
export const fuzzServerFlags = [
  '--rate-limit', '1000000/1h',
  '--max-json-body', String(fuzzLimits.jsonBody),
  '--max-file-size', String(fuzzLimits.fileSize),
  '--max-files', String(fuzzLimits.files),
  '--max-fields', String(fuzzLimits.fields),
  '--max-multipart-body', String(fuzzLimits.multipartBody),
];

type Header = readonly [string, string];

interface Shape {
  readonly method?: string;
  readonly path?: string;
  readonly version?: string;
  readonly headers: readonly Header[];
  readonly body: Buffer;
  /** length: add content-length; chunked: add transfer-encoding and chunk the body; raw: add nothing. */
  readonly framing?: 'length' | 'chunked' | 'raw';
}

function build(kind: FuzzKind, label: string, endpoint: string, shape: Shape, mayBeAccepted = false): FuzzCase {
  const framing = shape.framing ?? 'length';
  const lines = [`${shape.method ?? 'POST'} ${shape.path ?? `/api/f/${endpoint}`} ${shape.version ?? 'HTTP/1.1'}`, 'host: 127.0.0.1', 'connection: close'];
  for (const [name, value] of shape.headers) lines.push(`${name}: ${value}`);
  let body = shape.body;
  if (framing === 'length') lines.push(`content-length: ${body.length}`);
  if (framing === 'chunked') {
    lines.push('transfer-encoding: chunked');
    const chunks: Buffer[] = [];
    for (let at = 0; at < body.length; at += 8_192) {
      const chunk = body.subarray(at, at + 8_192);
      chunks.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'));
    }
    chunks.push(Buffer.from('0\r\n\r\n'));
    body = Buffer.concat(chunks);
  }
  return { kind, label, head: Buffer.from(lines.join('\r\n'), 'latin1'), body, mayBeAccepted };
}

const json = (text: string): Header => ['content-type', text];

/** Whether the text parses as one JSON object (a byte-order mark allowed): only then may it be accepted. */
function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text.replace(/^\ufeff/, ''));
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}
const jsonType: Header = json('application/json');
const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');

/** Almost-JSON: truncated, garbled or with syntax JSON does not allow. */
function brokenJson(endpoint: string): fc.Arbitrary<FuzzCase> {
  const truncated = fc.json({ maxDepth: 4 }).chain((text) => fc.nat({ max: Math.max(0, text.length - 1) }).map((cut) => text.slice(0, cut)));
  const garbled = fc.tuple(fc.json({ maxDepth: 3 }), fc.nat(), fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 4 })).map(([text, at, junk]) => {
    const position = text.length === 0 ? 0 : at % text.length;
    return text.slice(0, position) + junk + text.slice(position);
  });
  const invalidSyntax = fc.constantFrom(
    '{"a":1,}', "{'a':1}", '{a:1}', '{"a":1}}', '{"a":1} trailing', '{"a":NaN}', '{"a":Infinity}', '{"a":undefined}', '{"a":01}', '{"a":"\u0001"}',
    '{"a":"\\x41"}', '{"a":1 /* c */}', '\ufeff{"a":1}', '{"a":"unterminated}', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"x":1}}}',
    '{"a":1e999999}', '{"":1}', '{"a":-}', '{,}', '{', '}', '[', ']', '"', 'nul', 'tru', '{"a":[1,2,]}',
  );
  const notAnObject = fc.oneof(fc.jsonValue().filter((value) => value === null || typeof value !== 'object' || Array.isArray(value)).map((value) => JSON.stringify(value)));
  const anyObject = fc.object({ maxDepth: 3 }).map((value) => JSON.stringify(value));
  const types = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=latin1', 'application/json; foo=bar');
  return fc.tuple(fc.oneof(truncated, garbled, invalidSyntax, notAnObject, anyObject, fc.string({ maxLength: 200 })), types).map(([text, type]) =>
    build('broken-json', `json ${JSON.stringify(text.slice(0, 60))}`, endpoint, { headers: [json(type)], body: utf8(text) }, isJsonObject(text)),
  );
}

/** Values nested from a few levels to hundreds of thousands (past the 32-level limit and near the body limit). */
function deepNesting(endpoint: string): fc.Arbitrary<FuzzCase> {
  const depth = fc.oneof({ arbitrary: fc.integer({ min: 1, max: 64 }), weight: 5 }, { arbitrary: fc.integer({ min: 65, max: 5_000 }), weight: 3 }, { arbitrary: fc.integer({ min: 5_000, max: 120_000 }), weight: 1 });
  const style = fc.constantFrom('array', 'object', 'mixed', 'unclosed');
  return fc.tuple(depth, style).map(([levels, kind]) => {
    let open = '';
    let close = '';
    for (let i = 0; i < levels; i++) {
      const array = kind === 'array' || (kind === 'mixed' && i % 2 === 0) || kind === 'unclosed';
      open += array ? '[' : '{"k":';
      close = (array ? ']' : '}') + close;
    }
    const text = `{"deep":${open}1${kind === 'unclosed' ? '' : close}}`;
    return build('deep-nesting', `nesting ${kind} × ${levels}`, endpoint, { headers: [jsonType], body: utf8(text) }, levels <= 31 && kind !== 'unclosed');
  });
}

/** Bodies around and far over the limits, framed by content-length or chunked. */
function hugeBody(endpoint: string): fc.Arbitrary<FuzzCase> {
  const size = fc.oneof(fc.integer({ min: fuzzLimits.jsonBody - 64, max: fuzzLimits.jsonBody + 64 }), fc.integer({ min: fuzzLimits.jsonBody, max: 3 * fuzzLimits.jsonBody }));
  const framing = fc.constantFrom<'length' | 'chunked'>('length', 'chunked');
  const sized = fc.tuple(size, framing).map(([bytes, how]) => {
    const text = `{"big":"${'x'.repeat(Math.max(0, bytes - 10))}"}`;
    return build('huge-body', `${text.length}-byte JSON, ${how}`, endpoint, { headers: [jsonType], body: utf8(text), framing: how }, text.length <= fuzzLimits.jsonBody);
  });
  // A content-length far larger than what is sent: the server must refuse on the header alone.
  const announced = fc.constantFrom('1073741824', '99999999999999999999', '9007199254740993').map((length) =>
    build('huge-body', `content-length ${length}, 16 bytes sent`, endpoint, { headers: [jsonType, ['content-length', length]], body: utf8('{"a":"01234567"}'), framing: 'raw' }),
  );
  const manyFields = fc.integer({ min: fuzzLimits.fields - 2, max: fuzzLimits.fields * 20 }).map((count) => {
    const fields = Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${i}`, i]));
    const text = JSON.stringify(fields);
    return build('huge-body', `${count} JSON fields`, endpoint, { headers: [jsonType], body: utf8(text) }, count <= fuzzLimits.fields && text.length <= fuzzLimits.jsonBody);
  });
  return fc.oneof(sized, announced, manyFields);
}

function emptyBody(endpoint: string): fc.Arbitrary<FuzzCase> {
  const type = fc.constantFrom<Header | null>(jsonType, ['content-type', 'multipart/form-data; boundary=abc'], ['content-type', 'text/plain'], null);
  const framing = fc.constantFrom<'length' | 'chunked' | 'raw'>('length', 'chunked', 'raw');
  const whitespace = fc.constantFrom('', ' ', '\r\n', '\t \n');
  return fc.tuple(type, framing, whitespace).map(([header, how, text]) =>
    build('empty-body', `empty (${JSON.stringify(text)}) body, ${header ? header[1] : 'no content-type'}, ${how}`, endpoint, { headers: header ? [header] : [], body: utf8(text), framing: how }),
  );
}

function contentType(endpoint: string): fc.Arbitrary<FuzzCase> {
  const known = fc.constantFrom(
    'text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'text/json', 'application/jsonx', 'application/json-patch+json', 'application/ld+json',
    'application/vnd.api+json', 'multipart/mixed; boundary=x', 'multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary="unterminated',
    '', ';', 'application/', '/json', '*/*', 'application/json, text/plain', 'json', `application/json; ${'p=1; '.repeat(500)}`, 'application/octet-stream', 'image/png',
  );
  const random = fc.string({ unit: 'binary-ascii', maxLength: 80 }).map((text) => text.replace(/[\r\n\0]/g, ''));
  const header = fc.oneof(known.map((value): Header[] => [['content-type', value]]), random.map((value): Header[] => [['content-type', value]]), fc.constant<Header[]>([]), fc.constant<Header[]>([jsonType, ['content-type', 'text/plain']]));
  return fc.tuple(header, fc.constantFrom('{"a":1}', 'a=1&b=2', '<a>1</a>', '')).map(([headers, body]) =>
    build('content-type', `content-type ${JSON.stringify(headers.map(([, value]) => value)).slice(0, 80)}`, endpoint, { headers, body: utf8(body) }, true),
  );
}

function part(headers: readonly string[], content: Buffer | string): Buffer {
  return Buffer.concat([Buffer.from(`${headers.join('\r\n')}\r\n\r\n`, 'latin1'), typeof content === 'string' ? utf8(content) : content]);
}

function multipartBody(boundary: string, parts: readonly Buffer[], closing = true): Buffer {
  const pieces: Buffer[] = [];
  for (const piece of parts) pieces.push(Buffer.from(`--${boundary}\r\n`, 'latin1'), piece, Buffer.from('\r\n'));
  if (closing) pieces.push(Buffer.from(`--${boundary}--\r\n`, 'latin1'));
  return Buffer.concat(pieces);
}

const fieldPart = (name: string, value: string): Buffer => part([`content-disposition: form-data; name="${name}"`], value);
const filePart = (name: string, fileName: string, content: Buffer, type = 'application/octet-stream'): Buffer =>
  part([`content-disposition: form-data; name="${name}"; filename="${fileName}"`, `content-type: ${type}`], content);

function multipartBoundary(endpoint: string): fc.Arbitrary<FuzzCase> {
  const good = 'b0undary';
  const parts = [fieldPart('name', 'Ada'), filePart('cv', 'cv.txt', utf8('hello'))];
  const variants: fc.Arbitrary<{ label: string; type: string; body: Buffer; accept?: boolean }> = fc.oneof(
    fc.constant({ label: 'boundary mismatch', type: `multipart/form-data; boundary=other`, body: multipartBody(good, parts), accept: false }),
    fc.constant({ label: 'no closing boundary', type: `multipart/form-data; boundary=${good}`, body: multipartBody(good, parts, false), accept: false }),
    fc.constant({ label: 'no boundary parameter', type: 'multipart/form-data', body: multipartBody(good, parts), accept: false }),
    fc.constant({ label: 'empty boundary', type: 'multipart/form-data; boundary=', body: multipartBody('', parts) }),
    fc.constant({ label: 'boundary of 300 characters', type: `multipart/form-data; boundary=${'b'.repeat(300)}`, body: multipartBody('b'.repeat(300), parts) }),
    fc.constant({ label: 'quoted boundary', type: `multipart/form-data; boundary="${good}"`, body: multipartBody(good, parts) }),
    fc.constant({ label: 'part without content-disposition', type: `multipart/form-data; boundary=${good}`, body: multipartBody(good, [part(['content-type: text/plain'], 'x')]) }),
    fc.constant({ label: 'part without a name', type: `multipart/form-data; boundary=${good}`, body: multipartBody(good, [part(['content-disposition: form-data'], 'x')]) }),
    fc.constant({ label: 'part with no header block end', type: `multipart/form-data; boundary=${good}`, body: Buffer.from(`--${good}\r\ncontent-disposition: form-data; name="a"\r\nvalue\r\n--${good}--\r\n`) }),
    fc.constant({ label: 'LF-only line ends', type: `multipart/form-data; boundary=${good}`, body: Buffer.from(`--${good}\ncontent-disposition: form-data; name="a"\n\nvalue\n--${good}--\n`) }),
    fc.constant({ label: 'nested multipart/mixed', type: `multipart/form-data; boundary=${good}`, body: multipartBody(good, [part(['content-disposition: form-data; name="files"', 'content-type: multipart/mixed; boundary=inner'], multipartBody('inner', [filePart('x', 'a.txt', utf8('a'))]))]) }),
    fc.tuple(fc.uint8Array({ maxLength: 300 }), fc.boolean()).map(([junk, before]) => ({
      label: `${junk.length} bytes of junk ${before ? 'before the first boundary' : 'instead of a body'}`,
      type: `multipart/form-data; boundary=${good}`,
      body: before ? Buffer.concat([Buffer.from(junk), multipartBody(good, parts)]) : Buffer.from(junk),
      // A preamble before the first boundary is allowed (RFC 2046); junk alone is not a body.
      accept: before,
    })),
    fc.tuple(fc.nat(), fc.constant(multipartBody(good, parts))).map(([cut, body]) => ({ label: `body cut at ${cut % body.length}`, type: `multipart/form-data; boundary=${good}`, body: body.subarray(0, cut % body.length), accept: cut % body.length >= body.length - 2 })),
  );
  // The parser is lenient where the syntax is not in doubt (a quoted or empty boundary, a part
  // without a name, headers without their blank line): those may be accepted.
  return variants.map(({ label, type, body, accept }) => build('multipart-boundary', `multipart: ${label}`, endpoint, { headers: [['content-type', type]], body }, accept ?? true));
}

function multipartOversized(endpoint: string): fc.Arbitrary<FuzzCase> {
  const boundary = 'sizes';
  const type: Header = ['content-type', `multipart/form-data; boundary=${boundary}`];
  const file = (bytes: number): Buffer => Buffer.alloc(bytes, 0x61);
  return fc.oneof(
    fc.integer({ min: fuzzLimits.fileSize - 2, max: fuzzLimits.fileSize + 2 }).map((bytes) => build('multipart-oversized', `one file of ${bytes} bytes`, endpoint, { headers: [type], body: multipartBody(boundary, [filePart('f', 'f.bin', file(bytes))]) }, bytes <= fuzzLimits.fileSize)),
    fc.integer({ min: fuzzLimits.files, max: fuzzLimits.files + 5 }).map((count) =>
      build('multipart-oversized', `${count} files`, endpoint, { headers: [type], body: multipartBody(boundary, Array.from({ length: count }, (_, i) => filePart(`f${i}`, `f${i}.txt`, utf8(`file ${i}`)))) }, count <= fuzzLimits.files),
    ),
    fc.integer({ min: fuzzLimits.fields - 1, max: fuzzLimits.fields * 3 }).map((count) =>
      build('multipart-oversized', `${count} fields`, endpoint, { headers: [type], body: multipartBody(boundary, Array.from({ length: count }, (_, i) => fieldPart(`field${i}`, 'v'))) }, count <= fuzzLimits.fields),
    ),
    fc.integer({ min: 2, max: 4 }).map((count) =>
      build('multipart-oversized', `${count} files of ${fuzzLimits.fileSize - 1} bytes (total limit ${fuzzLimits.multipartBody})`, endpoint, {
        headers: [type],
        body: multipartBody(boundary, Array.from({ length: count }, (_, i) => filePart(`f${i}`, `f${i}.bin`, file(fuzzLimits.fileSize - 1)))),
      }, count <= fuzzLimits.files && count * (fuzzLimits.fileSize - 1) <= fuzzLimits.multipartBody),
    ),
    fc.integer({ min: fuzzLimits.jsonBody - 2, max: fuzzLimits.jsonBody + 2 }).map((bytes) =>
      build('multipart-oversized', `a text field of ${bytes} bytes`, endpoint, { headers: [type], body: multipartBody(boundary, [fieldPart('long', 'y'.repeat(bytes))]) }, bytes <= fuzzLimits.jsonBody),
    ),
  );
}

function fileName(endpoint: string): fc.Arbitrary<FuzzCase> {
  const boundary = 'names';
  const dangerous = fc.constantFrom(
    '../../etc/passwd', '..\\..\\windows\\win.ini', '/etc/shadow', 'C:\\boot.ini', '..', '.', '', 'a/../../b', 'nul\u0000byte.txt', 'tab\tand\u0007bell.txt',
    '\u202egnp.exe', 'con', 'aux.txt', '....//....//x', '%2e%2e%2fetc%2fpasswd', 'x'.repeat(1_000), 'name"quote.txt', "semi;colon.txt", '\u00ff\u00fe.bin', '😀.png', ' spaced .txt ',
  );
  const random = fc.string({ unit: 'binary', maxLength: 120 });
  // The header is sent as UTF-8 bytes, or as Latin-1 bytes (`latin1`), as clients differ.
  const disposition = fc.tuple(fc.oneof(dangerous, random), fc.constantFrom('plain', 'star', 'both', 'latin1')).map(([name, style]) => {
    const quoted = name.replace(/["\r\n]/g, '');
    switch (style) {
      case 'plain':
      case 'latin1':
        return { style, value: `form-data; name="upload"; filename="${quoted}"` };
      case 'star':
        return { style, value: `form-data; name="upload"; filename*=UTF-8''${encodeURIComponent(name)}` };
      case 'both':
        return { style, value: `form-data; name="upload"; filename="safe.txt"; filename*=UTF-8''${encodeURIComponent(name)}` };
    }
  });
  return fc.tuple(disposition, fc.uint8Array({ maxLength: 200 })).map(([{ style, value }, content]) => {
    const headerBytes = Buffer.from(`content-disposition: ${value}\r\ncontent-type: application/octet-stream`, style === 'latin1' ? 'latin1' : 'utf8');
    const body = Buffer.concat([Buffer.from(`--${boundary}\r\n`), headerBytes, Buffer.from('\r\n\r\n'), Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]);
    return build('file-name', `file name ${JSON.stringify(value.slice(0, 80))}`, endpoint, { headers: [['content-type', `multipart/form-data; boundary=${boundary}`]], body }, true);
  });
}

/** Byte sequences that are not UTF-8, in JSON strings, multipart values and header values. */
function invalidUtf8(endpoint: string): fc.Arbitrary<FuzzCase> {
  const badBytes = fc.constantFrom([0xc3, 0x28], [0xa0, 0xa1], [0xe2, 0x28, 0xa1], [0xf0, 0x28, 0x8c, 0x28], [0xed, 0xa0, 0x80], [0xff], [0xfe, 0xff], [0xc0, 0xaf], [0xf8, 0x88, 0x80, 0x80, 0x80]);
  const where = fc.constantFrom('json-string', 'json-key', 'json-escape', 'multipart-value', 'multipart-name', 'idempotency-key', 'user-agent');
  return fc.tuple(badBytes, where, fc.string({ maxLength: 20 })).map(([bytes, place, text]) => {
    const bad = Buffer.from(bytes);
    const label = `invalid UTF-8 ${Buffer.from(bytes).toString('hex')} in ${place}`;
    switch (place) {
      case 'json-string':
        return build('invalid-utf8', label, endpoint, { headers: [jsonType], body: Buffer.concat([utf8(`{"message":"${text.replace(/["\\]/g, '')}`), bad, utf8('"}')]) }, true);
      case 'json-key':
        return build('invalid-utf8', label, endpoint, { headers: [jsonType], body: Buffer.concat([utf8('{"'), bad, utf8('":1}')]) }, true);
      case 'json-escape':
        return build('invalid-utf8', `lone surrogate escapes in JSON`, endpoint, { headers: [jsonType], body: utf8('{"a":"\\ud800","\\udfff":"\\udc00\\ud800x","e":"\\u0000"}') }, true);
      case 'multipart-value':
        return build('invalid-utf8', label, endpoint, { headers: [['content-type', 'multipart/form-data; boundary=u']], body: multipartBody('u', [Buffer.concat([Buffer.from('content-disposition: form-data; name="m"\r\n\r\n'), bad])]) }, true);
      case 'multipart-name':
        return build('invalid-utf8', label, endpoint, { headers: [['content-type', 'multipart/form-data; boundary=u']], body: multipartBody('u', [Buffer.concat([Buffer.from('content-disposition: form-data; name="'), bad, Buffer.from('"\r\n\r\nv')])]) }, true);
      case 'idempotency-key':
        return { ...build('invalid-utf8', label, endpoint, { headers: [jsonType], body: utf8('{"a":1}') }, true), head: Buffer.concat([build('invalid-utf8', label, endpoint, { headers: [jsonType], body: utf8('{"a":1}') }).head, Buffer.from('\r\nidempotency-key: k'), bad]) };
      case 'user-agent':
        return { ...build('invalid-utf8', label, endpoint, { headers: [jsonType], body: utf8('{"a":1}') }, true), head: Buffer.concat([build('invalid-utf8', label, endpoint, { headers: [jsonType], body: utf8('{"a":1}') }).head, Buffer.from('\r\nuser-agent: agent/'), bad]) };
    }
  });
}

/** CR, LF and NUL inside header values, folded lines, conflicting framing headers, oversized headers. */
function headerInjection(endpoint: string): fc.Arbitrary<FuzzCase> {
  const body = '{"a":1}';
  const withRaw = (label: string, extra: string, framing: 'length' | 'raw' = 'length', payload = body): FuzzCase => {
    const base = build('header-injection', label, endpoint, { headers: [jsonType], body: utf8(payload), framing });
    return { ...base, head: Buffer.concat([base.head, Buffer.from(`\r\n${extra}`, 'latin1')]), mayBeAccepted: true };
  };
  const injected = fc.constantFrom(
    'idempotency-key: a\r\nx-injected: 1',
    'idempotency-key: a\nx-injected: 1',
    'idempotency-key: a\rx-injected: 1',
    'idempotency-key: a\u0000b',
    'x-service-honeypot: \u0000',
    'idempotency-key: folded\r\n continued',
    'bad header name: x',
    'x-a:b\r\n:empty-name',
    'idempotency-key: one\r\nidempotency-key: two',
    `idempotency-key: ${'k'.repeat(256)}`,
    'idempotency-key: ',
    'transfer-encoding: chunked',
    'transfer-encoding: gzip',
    'transfer-encoding: chunked, chunked',
    'content-length: 7\r\ncontent-length: 8',
    'content-length: -1',
    'content-length: 7a',
    'content-length: +7',
    'content-length: 0x7',
    'expect: 100-continue',
    'expect: something-else',
    `x-big: ${'b'.repeat(20_000)}`,
    `x-forwarded-for: 1.2.3.4\r\nx-forwarded-for: ${'9'.repeat(300)}`,
    `cookie: ${'c=1; '.repeat(2_000)}`,
    'upgrade: websocket\r\nconnection: upgrade',
    'content-encoding: gzip',
  );
  const randomValue = fc.string({ unit: 'binary-ascii', maxLength: 64 }).map((value) => `idempotency-key: ${value}`);
  const smuggled = fc.constant(null).map(() => withRaw('content-length with a chunked body', 'transfer-encoding: chunked', 'length', '7\r\n{"a":1}\r\n0\r\n\r\n'));
  const badChunks = fc.constantFrom('zz\r\n{"a":1}\r\n0\r\n\r\n', '7\r\n{"a":1}0\r\n\r\n', '-1\r\n{}\r\n0\r\n\r\n', `${'f'.repeat(20)}\r\n{}\r\n0\r\n\r\n`, '7;ext=1\r\n{"a":1}\r\n0\r\n\r\n').map((chunked) => {
    const base = build('header-injection', `malformed chunks ${JSON.stringify(chunked.slice(0, 20))}`, endpoint, { headers: [jsonType, ['transfer-encoding', 'chunked']], body: utf8(chunked), framing: 'raw' });
    return { ...base, mayBeAccepted: true };
  });
  return fc.oneof(
    injected.map((extra) => withRaw(`header ${JSON.stringify(extra.slice(0, 60))}`, extra)),
    randomValue.map((extra) => withRaw(`idempotency-key ${JSON.stringify(extra.slice(17, 60))}`, extra)),
    smuggled,
    badChunks,
  );
}

/** Other methods, odd request lines and endpoint ids that are not (quite) the form's. */
function pathAndMethod(endpoint: string): fc.Arbitrary<FuzzCase> {
  const paths = fc.constantFrom(
    `/api/f/${endpoint}/`, `/api/f/${endpoint}?x=1`, `/api/f/${endpoint}#frag`, `/api/f/${endpoint}%00`, `/api/f/${endpoint.toUpperCase()}`, `/api/f/%2e%2e/%2e%2e/etc/passwd`,
    `/api/f/../f/${endpoint}`, `/api/f//${endpoint}`, `/api/f/${'x'.repeat(250)}`, '/api/f/', '/api/f', `/API/F/${endpoint}`, `/api/f/${endpoint};jsessionid=1`,
    `http://127.0.0.1/api/f/${endpoint}`, '*', `/api/f/${encodeURIComponent('😀')}`, '/v1/projects', '/api/f/%zz', `/api/f/${endpoint}\u0000`,
  );
  const methods = fc.constantFrom('POST', 'GET', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'CONNECT', 'FOO', 'post', 'P0ST');
  const versions = fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.2', 'HTTP/0.9', 'http/1.1');
  const randomPath = fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((text) => `/api/f/${text.replace(/[\s]/g, '')}`);
  return fc.tuple(fc.oneof(paths, randomPath), methods, fc.oneof({ arbitrary: fc.constant('HTTP/1.1'), weight: 4 }, { arbitrary: versions, weight: 1 })).map(([path, method, version]) =>
    build('path-and-method', `${method} ${path.slice(0, 60)} ${version}`, endpoint, { method, path, version, headers: [jsonType], body: utf8('{"a":1}') }, true),
  );
}

/** Every kind, equally likely. */
export function fuzzCase(endpoint: string): fc.Arbitrary<FuzzCase> {
  return fc.oneof(
    brokenJson(endpoint),
    deepNesting(endpoint),
    hugeBody(endpoint),
    emptyBody(endpoint),
    contentType(endpoint),
    multipartBoundary(endpoint),
    multipartOversized(endpoint),
    fileName(endpoint),
    invalidUtf8(endpoint),
    headerInjection(endpoint),
    pathAndMethod(endpoint),
  );
}
