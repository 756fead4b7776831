// Fixed vectors. The digests were computed once, outside this package, with
//   printf '%s' '<t>.<body>' | openssl dgst -sha256 -hmac '<secret>'
// (the bytes body with printf '1700000000.\x00\xff\x80\x0a\x7b'), and are written here literally.
export const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
export const OTHER_SECRET = 'whsec_0123456789abcdefghijklmnopqrstuv';
export const T = 1700000000;

export const ASCII_BODY = '{"id":"evt_1","type":"form.submission.created"}';
/** `{"name":"Zoë","city":"東京","emoji":"🎉"}`, escaped so no editor can re-normalise it. */
export const UTF8_BODY = '{"name":"Zo\u00eb","city":"\u6771\u4eac","emoji":"\u{1F389}"}';
/** Not valid UTF-8 on purpose: proves bytes are signed as they are, never decoded. */
export const BYTES_BODY = Uint8Array.of(0x00, 0xff, 0x80, 0x0a, 0x7b);

export const VECTORS = [
  {
    name: 'ASCII body',
    secret: SECRET,
    body: ASCII_BODY,
    header: 't=1700000000,v1=cef06e1ded47a5f6e6aecdc7cea0eb25f777f847fb2e9e5f480ea312a823d9a2',
  },
  {
    name: 'UTF-8 multibyte body',
    secret: SECRET,
    body: UTF8_BODY,
    header: 't=1700000000,v1=2bf9c4af07ef083c4c1ad5da1027766d17e62a55589ed3388a07e7a795a5ac94',
  },
  {
    name: 'empty body',
    secret: SECRET,
    body: '',
    header: 't=1700000000,v1=cba1e6bca7337490cde16bc4e0003251c7f5bb8e661e3d8e25d141a92c2ec991',
  },
  {
    name: 'bytes body',
    secret: SECRET,
    body: BYTES_BODY,
    header: 't=1700000000,v1=1ee9b06f50eb3cbb9ae7fd1d79d389749437060ffa517f36b91dd38cfbf5d3b5',
  },
  {
    name: 'two secrets, in the given order',
    secret: [SECRET, OTHER_SECRET],
    body: ASCII_BODY,
    header:
      't=1700000000,v1=cef06e1ded47a5f6e6aecdc7cea0eb25f777f847fb2e9e5f480ea312a823d9a2' +
      ',v1=85e67e4d78f9d8475c77da236a646e4a3b1c8127e2be7b9ecd62c71f62a8a873',
  },
] as const;
