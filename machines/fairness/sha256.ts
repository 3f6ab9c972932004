/**
 * SHA-256 and HMAC-SHA256 (FIPS 180-4, RFC 2104) in plain TypeScript. The
 * machines and the web client both check deals against their seeds, and
 * neither may reach for `node:crypto`: the machines do no I/O, and the
 * browser's SubtleCrypto is asynchronous. Tested against `node:crypto`.
 */

const ROUND_CONSTANTS = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const INITIAL_HASH = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const BLOCK_BYTES = 64;
const BLOCK_WORDS = 16;

/** The message schedule, reused by every compression: the machines are single-threaded. */
const schedule = new Uint32Array(64);

/** One SHA-256 compression of the 16 big-endian words `block` into `hash`. */
function compress(hash: Uint32Array, block: ArrayLike<number>): void {
  for (let t = 0; t < BLOCK_WORDS; t++) schedule[t] = block[t];
  for (let t = 16; t < 64; t++) {
    const w15 = schedule[t - 15];
    const w2 = schedule[t - 2];
    const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3);
    const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10);
    schedule[t] = (schedule[t - 16] + s0 + schedule[t - 7] + s1) >>> 0;
  }
  let a = hash[0],
    b = hash[1],
    c = hash[2],
    d = hash[3],
    e = hash[4],
    f = hash[5],
    g = hash[6],
    h = hash[7];
  for (let t = 0; t < 64; t++) {
    const sum1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
    const choice = (e & f) ^ (~e & g);
    const temp1 = (h + sum1 + choice + ROUND_CONSTANTS[t] + schedule[t]) >>> 0;
    const sum0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
    const majority = (a & b) ^ (a & c) ^ (b & c);
    const temp2 = (sum0 + majority) >>> 0;
    h = g;
    g = f;
    f = e;
    e = (d + temp1) >>> 0;
    d = c;
    c = b;
    b = a;
    a = (temp1 + temp2) >>> 0;
  }
  hash[0] += a;
  hash[1] += b;
  hash[2] += c;
  hash[3] += d;
  hash[4] += e;
  hash[5] += f;
  hash[6] += g;
  hash[7] += h;
}

/** The big-endian words of `bytes` (a whole number of words). */
function wordsOf(bytes: Uint8Array): Uint32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Uint32Array.from({ length: bytes.length / 4 }, (_, i) => view.getUint32(i * 4));
}

function bytesOf(words: Uint32Array): Uint8Array {
  const bytes = new Uint8Array(words.length * 4);
  const view = new DataView(bytes.buffer);
  words.forEach((word, i) => view.setUint32(i * 4, word));
  return bytes;
}

/** SHA-256 of `message`, continuing from `hash` after `before` bytes already compressed into it. */
function finish(hash: Uint32Array, message: Uint8Array, before = 0): Uint32Array {
  const bitLength = (before + message.length) * 8;
  const padded = new Uint8Array(Math.ceil((message.length + 9) / BLOCK_BYTES) * BLOCK_BYTES);
  padded.set(message);
  padded[message.length] = 0x80;
  const tail = new DataView(padded.buffer);
  tail.setUint32(padded.length - 8, Math.floor(bitLength / 2 ** 32));
  tail.setUint32(padded.length - 4, bitLength >>> 0);
  const words = wordsOf(padded);
  for (let offset = 0; offset < words.length; offset += BLOCK_WORDS) compress(hash, words.subarray(offset, offset + BLOCK_WORDS));
  return hash;
}

export function sha256(message: Uint8Array): Uint8Array {
  return bytesOf(finish(Uint32Array.from(INITIAL_HASH), message));
}

export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  return bytesOf(hmacWith(keyedHmac(key), message));
}

/**
 * HMAC-SHA256 under one key, with the key's inner and outer pads compressed
 * once: every message after that costs two compressions less (a deal draws
 * about ten blocks from one seed).
 */
export interface KeyedHmac {
  readonly inner: Uint32Array;
  readonly outer: Uint32Array;
}

export function keyedHmac(key: Uint8Array): KeyedHmac {
  const block = new Uint8Array(BLOCK_BYTES);
  block.set(key.length > BLOCK_BYTES ? sha256(key) : key);
  const inner = Uint32Array.from(INITIAL_HASH);
  const outer = Uint32Array.from(INITIAL_HASH);
  compress(inner, wordsOf(block.map((byte) => byte ^ 0x36)));
  compress(outer, wordsOf(block.map((byte) => byte ^ 0x5c)));
  return { inner, outer };
}

/** HMAC-SHA256 of `message` under a keyed HMAC, as eight big-endian words. */
export function hmacWith(keyed: KeyedHmac, message: Uint8Array): Uint32Array {
  const inner = keyed.inner.slice();
  if (message.length <= SHORT_MESSAGE_BYTES) compress(inner, lastBlock(wordsOfShort(message), message.length, BLOCK_BYTES));
  else finish(inner, message, BLOCK_BYTES);
  const outer = keyed.outer.slice();
  compress(outer, lastBlock(inner, 32, BLOCK_BYTES));
  return outer;
}

/** Messages that fit one block with their padding: a deal's counters and the inner digest. */
const SHORT_MESSAGE_BYTES = 55;
const lastBlockWords = new Uint32Array(BLOCK_WORDS);

function wordsOfShort(message: Uint8Array): Uint32Array {
  const words = new Uint32Array(Math.ceil(message.length / 4));
  for (let i = 0; i < message.length; i++) words[i >> 2] |= message[i] << (24 - 8 * (i & 3));
  return words;
}

/** The one padded block of a short message of `length` bytes (its `words`), after `before` bytes. */
function lastBlock(words: Uint32Array, length: number, before: number): Uint32Array {
  lastBlockWords.fill(0);
  lastBlockWords.set(words);
  lastBlockWords[length >> 2] |= 0x80 << (24 - 8 * (length & 3));
  lastBlockWords[15] = (before + length) * 8;
  return lastBlockWords;
}

function rotr(word: number, bits: number): number {
  return (word >>> bits) | (word << (32 - bits));
}

export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** The bytes of a lowercase hex string; the caller checks its form first. */
export function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}
