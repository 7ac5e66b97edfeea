/**
 * A pull reader over a byte stream: lines (bounded), exact lengths (streamed, never gathered) and
 * skips. Memory holds at most one chunk of the source plus the line being read.
 */

/** The stream ended before the bytes a reader asked for. */
export class EndOfData extends Error {
  constructor(
    readonly wanted: number,
    readonly got: number,
  ) {
    super(`The data ended after ${got} of ${wanted} bytes`);
    this.name = 'EndOfData';
  }
}

/** A line longer than allowed: not the text header it should be. */
export class LineTooLong extends Error {
  constructor(readonly max: number) {
    super(`A line is longer than ${max} bytes`);
    this.name = 'LineTooLong';
  }
}

const EMPTY = Buffer.alloc(0);

export class ByteReader {
  private buffer: Buffer = EMPTY;
  private readonly iterator: AsyncIterator<Uint8Array>;
  private ended = false;
  /** Bytes handed out (or skipped) so far. */
  position = 0;

  constructor(source: AsyncIterable<Uint8Array>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  /** Pulls one more chunk into the buffer; false at the end of the source. */
  private async fill(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.iterator.next();
    if (next.done === true) {
      this.ended = true;
      return false;
    }
    const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    return true;
  }

  /** True when no byte is left. */
  async atEnd(): Promise<boolean> {
    while (this.buffer.length === 0) if (!(await this.fill())) return true;
    return false;
  }

  /**
   * The next line without its line ending (LF or CRLF); null at the end of the stream. A last
   * line without an ending is returned as is. Throws LineTooLong past `max` bytes.
   */
  async readLine(max: number): Promise<Buffer | null> {
    let from = 0;
    for (;;) {
      const newline = this.buffer.indexOf(10, from);
      if (newline !== -1) {
        if (newline > max) throw new LineTooLong(max);
        const line = this.buffer.subarray(0, newline);
        this.consume(newline + 1);
        return line.length > 0 && line[line.length - 1] === 13 ? line.subarray(0, -1) : line;
      }
      if (this.buffer.length > max) throw new LineTooLong(max);
      from = this.buffer.length;
      if (!(await this.fill())) {
        if (this.buffer.length === 0) return null;
        const line = this.buffer;
        this.consume(line.length);
        return line;
      }
    }
  }

  /** Exactly `length` bytes, streamed; throws EndOfData if the stream ends first. */
  async *take(length: number): AsyncGenerator<Uint8Array> {
    let left = length;
    while (left > 0) {
      if (this.buffer.length === 0 && !(await this.fill()))
        throw new EndOfData(length, length - left);
      const part = this.buffer.subarray(0, Math.min(left, this.buffer.length));
      this.consume(part.length);
      left -= part.length;
      yield part;
    }
  }

  /** Up to `length` next bytes, left unread (fewer at the end of the stream). */
  async peek(length: number): Promise<Buffer> {
    while (this.buffer.length < length && (await this.fill()));
    return this.buffer.subarray(0, length);
  }

  /** Everything left, streamed. */
  async *remaining(): AsyncGenerator<Uint8Array> {
    for (;;) {
      if (this.buffer.length === 0 && !(await this.fill())) return;
      const part = this.buffer;
      this.consume(part.length);
      yield part;
    }
  }

  /** Skips exactly `length` bytes; throws EndOfData if the stream ends first. */
  async skip(length: number): Promise<void> {
    for await (const part of this.take(length)) void part;
  }

  private consume(length: number): void {
    this.buffer = length >= this.buffer.length ? EMPTY : this.buffer.subarray(length);
    this.position += length;
  }
}

/**
 * A record's block: a window of `length` bytes of the reader. Lines and the rest are read within
 * it; `drain()` skips what is left so the reader stands at the block's end.
 */
export class Block {
  private remaining: number;

  constructor(
    private readonly reader: ByteReader,
    readonly length: number,
  ) {
    this.remaining = length;
  }

  get left(): number {
    return this.remaining;
  }

  /** A line within the block; null when the block is used up. Throws LineTooLong past `max`. */
  async readLine(max: number): Promise<Buffer | null> {
    if (this.remaining === 0) return null;
    const before = this.reader.position;
    const line = await this.reader.readLine(Math.min(max, this.remaining));
    const used = this.reader.position - before;
    if (line === null) throw new EndOfData(this.length, this.length - this.remaining);
    if (used > this.remaining) throw new LineTooLong(this.remaining);
    this.remaining -= used;
    return line;
  }

  /** The rest of the block, streamed. */
  async *rest(): AsyncGenerator<Uint8Array> {
    const length = this.remaining;
    for await (const part of this.reader.take(length)) {
      this.remaining -= part.length;
      yield part;
    }
  }

  async drain(): Promise<void> {
    const length = this.remaining;
    this.remaining = 0;
    await this.reader.skip(length);
  }
}
