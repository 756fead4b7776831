// svc: the ALTCHA widget on a page without Web Crypto (docs/form-endpoint.md, "ALTCHA on a
// plain-http page"). Browsers give crypto.subtle only to secure contexts (https, localhost),
// so on a plain-http staging host the widget's workers fail and it says "Verifying…" for
// ever. There, and only there, this solves the proof of work on the page itself: the
// widget asks `globalThis.altchaCreateWorker` for its workers, and gets solvers that speak
// the worker's messages and hash with the SHA-256 below (FIPS 180-4, checked against
// Node's crypto in the server's tests). Appended to the widget's module by the server.
(() => {
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (subtle && typeof subtle.digest === 'function') return;

  const K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ]);
  const encoder = new TextEncoder();
  const w = new Uint32Array(64);
  const rotate = (x, n) => (x >>> n) | (x << (32 - n));

  const sha256Hex = (text) => {
    const bytes = encoder.encode(text);
    const words = new Uint32Array(((bytes.length + 9 + 63) >> 6) << 4);
    for (let i = 0; i < bytes.length; i++) words[i >> 2] |= bytes[i] << (24 - (i & 3) * 8);
    words[bytes.length >> 2] |= 0x80 << (24 - (bytes.length & 3) * 8);
    words[words.length - 1] = bytes.length * 8;
    const hash = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
    for (let block = 0; block < words.length; block += 16) {
      for (let t = 0; t < 16; t++) w[t] = words[block + t];
      for (let t = 16; t < 64; t++) {
        const s0 = rotate(w[t - 15], 7) ^ rotate(w[t - 15], 18) ^ (w[t - 15] >>> 3);
        const s1 = rotate(w[t - 2], 17) ^ rotate(w[t - 2], 19) ^ (w[t - 2] >>> 10);
        w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
      }
      let [a, b, c, d, e, f, g, h] = hash;
      for (let t = 0; t < 64; t++) {
        const t1 = (h + (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t]) | 0;
        const t2 = ((rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        h = g;
        g = f;
        f = e;
        e = (d + t1) | 0;
        d = c;
        c = b;
        b = a;
        a = (t1 + t2) | 0;
      }
      const next = [a, b, c, d, e, f, g, h];
      for (let i = 0; i < 8; i++) hash[i] = (hash[i] + next[i]) | 0;
    }
    return Array.from(hash, (word) => word.toString(16).padStart(8, '0')).join('');
  };

  /** One of the widget's workers, on the page: `work` searches its share of the numbers, `abort` stops it. */
  class PageSolver extends EventTarget {
    aborted = false;

    postMessage(message) {
      if (message.type === 'abort') this.aborted = true;
      if (message.type !== 'work') return;
      const { payload, start, max } = message;
      const begun = Date.now();
      void (async () => {
        let found = null;
        if (String(payload.algorithm).toUpperCase() === 'SHA-256') {
          for (let number = start; number <= max && !this.aborted; number++) {
            if (sha256Hex(payload.salt + number) === payload.challenge) {
              found = { number, took: Date.now() - begun, worker: true };
              break;
            }
            // Lets the page (and the other solvers) run between slices of work.
            if (number % 1000 === 999) await new Promise((resolve) => setTimeout(resolve, 0));
          }
        }
        this.dispatchEvent(new MessageEvent('message', { data: found }));
      })();
    }

    terminate() {
      this.aborted = true;
    }
  }

  globalThis.altchaCreateWorker = () => new PageSolver();
})();
