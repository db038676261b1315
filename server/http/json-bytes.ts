/**
 * Answers written as JSON bytes, into buffers kept from one answer to the next.
 *
 * Kept buffers: on a virtual machine like this one the first touch of fresh memory costs about
 * 3 µs a kB, as much as writing the JSON. One `JSON.stringify` of a whole order (a string V8 then
 * flattens into a new copy) encoded into a new buffer touched some 2.4 MB of fresh memory an
 * order; written piece by piece into a buffer already touched, the same bytes cost none of that.
 *
 * Bytes rather than text: a result's keys are bytes made once, its strings (descriptions, notes,
 * programs: the same few thousand over and over) are encoded once and kept, and its amounts are
 * written from their digits. A 1,000-line order is written in about half the time of a
 * `JSON.stringify` per line and its UTF-8 encoding, and allocates nothing per line
 * (docs/performance-history.md). What is written is exactly what `JSON.stringify` writes (tested).
 */

/**
 * Buffers kept between answers: the `keep` largest given back are kept, and a request takes the
 * smallest that fits. Keeping whichever came back first let small answers fill the list (a GET
 * /duty answer that writes a template holds two at once), and then every order's answer was
 * written into a fresh megabyte and dropped: 9.4 ms an order against 5.2 ms after some GET
 * traffic (README, Performance).
 */
export class BufferPool {
  private readonly idle: Buffer[] = [];

  constructor(private readonly keep: number) {}

  /** The smallest idle buffer of `atLeast` bytes, taken out of the pool; null when none is that large. */
  take(atLeast: number): Buffer | null {
    const idle = this.idle;
    let best = -1;
    for (let i = 0; i < idle.length; i++) if (idle[i].length >= atLeast && (best < 0 || idle[i].length < idle[best].length)) best = i;
    if (best < 0) return null;
    const buf = idle[best];
    idle[best] = idle[idle.length - 1];
    idle.pop();
    return buf;
  }

  /** Gives `buf` back: kept if the pool has room or holds a smaller one (then dropped for it). A buffer given twice is kept once. */
  give(buf: Buffer): void {
    const idle = this.idle;
    if (idle.includes(buf)) return;
    if (idle.length < this.keep) return void idle.push(buf);
    let smallest = 0;
    for (let i = 1; i < idle.length; i++) if (idle[i].length < idle[smallest].length) smallest = i;
    if (idle[smallest].length < buf.length) idle[smallest] = buf;
  }
}

/** Two: enough for the orders answered at once, without holding memory for a burst. */
const pool = new BufferPool(2);
/** Below this, a request gets a buffer of this size: a GET answer or a template (1-3 kB) needs no more. */
const SMALL = 16 * 1024;
/** The size of a new buffer for a larger answer: the largest answer yet, at least 256 kB. */
let usual = 256 * 1024;

function take(atLeast: number): Buffer {
  // Outside Node's shared pool: a kept buffer must not pin the pool's other slices.
  return pool.take(atLeast) ?? Buffer.allocUnsafeSlow(atLeast <= SMALL ? SMALL : Math.max(atLeast, usual));
}

/** Bytes made once: text as UTF-8 in an array of its own. */
export const bytesOf = (text: string): Uint8Array => new Uint8Array(Buffer.from(text));

const NULL = bytesOf('null');
const TRUE = bytesOf('true');
const FALSE = bytesOf('false');

/** Strings as JSON (quoted, escaped, UTF-8), by string: results repeat the same few thousand. */
const encoded = new Map<string, Uint8Array>();
/** Past this many, the encoded strings are forgotten and encoded anew as they come: memory stays bounded whatever the strings. */
const STRINGS_HELD = 20_000;

function encodedString(s: string): Uint8Array {
  let bytes = encoded.get(s);
  if (bytes === undefined) {
    if (encoded.size === STRINGS_HELD) encoded.clear();
    encoded.set(s, (bytes = bytesOf(JSON.stringify(s))));
  }
  return bytes;
}

/** The number of decimal digits of a non-negative integer below 2^31. */
const digitCount = (n: number): number =>
  n < 10 ? 1 : n < 100 ? 2 : n < 1e3 ? 3 : n < 1e4 ? 4 : n < 1e5 ? 5 : n < 1e6 ? 6 : n < 1e7 ? 7 : n < 1e8 ? 8 : n < 1e9 ? 9 : 10;

const INT_MAX = 2 ** 31 - 1;

/** "00" to "99" as ASCII, two bytes each. */
const DIGIT_PAIRS = bytesOf(Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0')).join(''));

/**
 * Small answers (GET /duty's, about 1 kB) are written one after another into a slab and sent as
 * views of it, as Node's own Buffer pool does: no copy out of a kept buffer, and one allocation of
 * 64 kB per some sixty answers instead of a buffer each. A full slab is left to the answers that
 * still view it and dropped with them (one answer held by a slow client holds its whole slab).
 */
const SLAB = 64 * 1024;
/** Room a small answer is given in the slab: a result's JSON reaches 3 kB; a longer one moves to a buffer of its own as it grows. */
const SLAB_ROOM = 4 * 1024;
let slab = Buffer.allocUnsafeSlow(0);
let slabUsed = 0;

/**
 * A non-negative integer below 2^31 written at `at` (room for 10 digits), two digits at a time:
 * half the divisions of one at a time. Where it ends.
 */
export function writeInteger(buf: Uint8Array, at: number, n: number): number {
  const end = at + digitCount(n);
  let i = end;
  while (n >= 10) {
    const q = (n / 100) | 0;
    const pair = (n - q * 100) << 1;
    buf[--i] = DIGIT_PAIRS[pair + 1];
    buf[--i] = DIGIT_PAIRS[pair];
    n = q;
  }
  // An odd count of digits leaves the first one (or a lone 0).
  if (i > at) buf[--i] = 48 + n;
  return end;
}

/**
 * JSON written as UTF-8 into a kept buffer, which grows as needed; `release` gives the buffer back
 * once sent. A small answer is written in the slab instead and handed over by `sent`.
 */
export class JsonBytes {
  private buf: Buffer;
  private used: number;
  /** Where this answer starts in `buf`: past the answers before it when `buf` is the slab. */
  private start: number;
  /** Written in the slab, or in memory of its own once it outgrew it: never in a kept buffer. */
  private readonly small: boolean;

  /** `expected`: the bytes the answer is likely to take, for a kept buffer; 'small': in the slab of small answers (then `sent`, not `release`). */
  constructor(expected: number | 'small') {
    this.small = expected === 'small';
    if (expected === 'small') {
      if (slab.length - slabUsed < SLAB_ROOM) {
        slab = Buffer.allocUnsafeSlow(SLAB);
        slabUsed = 0;
      }
      this.buf = slab;
      this.used = this.start = slabUsed;
    } else {
      this.buf = take(expected);
      this.used = this.start = 0;
    }
  }

  /** A small answer's bytes, its own from now on: a view of the slab (which moves past it, never back), or of the memory it grew into. */
  sent(): Buffer {
    if (!this.small) throw new Error('sent() is for a small answer; a kept buffer is given back by release()');
    if (this.buf === slab && this.used > slabUsed) slabUsed = this.used;
    return this.buf.subarray(this.start, this.used);
  }

  /** Any text, as UTF-8. */
  add(text: string): void {
    // At most 3 bytes a UTF-16 unit: room checked before writing, so nothing is ever cut.
    this.room(text.length * 3);
    this.used += this.buf.write(text, this.used);
  }

  /** Bytes made once (bytesOf): a key with its punctuation. */
  raw(bytes: Uint8Array): void {
    const n = bytes.length;
    this.room(n);
    const buf = this.buf;
    const at = this.used;
    // A loop for the short ones: a call to copy costs more than a key's few bytes.
    if (n > 24) buf.set(bytes, at);
    else for (let i = 0; i < n; i++) buf[at + i] = bytes[i];
    this.used = at + n;
  }

  /** One ASCII character. */
  byte(code: number): void {
    this.room(1);
    this.buf[this.used++] = code;
  }

  /** A string as JSON.stringify writes it. */
  string(s: string): void {
    this.raw(encodedString(s));
  }

  stringOrNull(s: string | null): void {
    if (s === null) this.raw(NULL);
    else this.raw(encodedString(s));
  }

  boolean(b: boolean): void {
    this.raw(b ? TRUE : FALSE);
  }

  /**
   * A number as JSON.stringify writes it. Integers and amounts of whole cents (the engine's dollars)
   * are written from their digits: for such a double the shortest decimal that reads back as it,
   * which is what JavaScript prints, is its cents with the point put back and trailing zeros dropped.
   */
  number(x: number): void {
    if ((x | 0) === x && x >= 0) return this.integer(x);
    const cents = Math.round(x * 100);
    if (cents / 100 !== x || cents < 0 || cents > INT_MAX) return this.add(Number.isFinite(x) ? String(x) : 'null');
    const whole = (cents / 100) | 0;
    const frac = cents - whole * 100;
    this.integer(whole);
    this.room(3);
    const buf = this.buf;
    buf[this.used++] = 46; // .
    buf[this.used++] = DIGIT_PAIRS[frac << 1];
    const cent = DIGIT_PAIRS[(frac << 1) + 1];
    if (cent !== 48) buf[this.used++] = cent;
  }

  numberOrNull(x: number | null): void {
    if (x === null) this.raw(NULL);
    else this.number(x);
  }

  /** How many bytes are written. */
  get length(): number {
    return this.used - this.start;
  }

  /** A copy of the bytes written, in an array of its own. */
  copy(): Uint8Array {
    return new Uint8Array(this.buf.subarray(this.start, this.used));
  }

  /** The bytes written: valid until `release`. */
  bytes(): Buffer {
    return this.buf.subarray(this.start, this.used);
  }

  /** Called once the bytes are handed to the kernel (the response's 'finish'); an answer never finished leaves its buffer to the collector. */
  release(): void {
    // The slab is shared by the small answers still being sent: it is never the pool's.
    if (this.small) throw new Error('release() is for a kept buffer; a small answer is handed over by sent()');
    if (this.used > usual) usual = this.used;
    pool.give(this.buf);
  }

  /** A non-negative integer below 2^31. */
  private integer(n: number): void {
    this.room(10);
    this.used = writeInteger(this.buf, this.used, n);
  }

  private room(n: number): void {
    if (this.buf.length - this.used < n) this.grow(this.used + n);
  }

  private grow(atLeast: number): void {
    const written = this.used - this.start;
    const size = Math.max(atLeast - this.start, 2 * written, SLAB_ROOM);
    // A small answer grows into memory of its own, never a kept buffer: it is handed over, not given back.
    const bigger = this.small ? Buffer.allocUnsafeSlow(size) : take(size);
    this.buf.copy(bigger, 0, this.start, this.used);
    if (!this.small) pool.give(this.buf);
    this.buf = bigger;
    this.start = 0;
    this.used = written;
  }
}
