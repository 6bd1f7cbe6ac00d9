/**
 * Reading a request body within the upload limits: `DATA_UPLOAD_MAX_MEMORY_SIZE` for bodies
 * held in memory, `FILE_UPLOAD_MAX_SIZE` for streams whose files go to disk. Past a limit the
 * read fails with `RequestDataTooBig` (a 413).
 */
import type { IncomingMessage } from 'node:http';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { settings } from '../conf';
import { RequestAborted, RequestDataTooBig } from '../exceptions';

/** The 413 text of a body past `DATA_UPLOAD_MAX_MEMORY_SIZE`. */
export const BODY_TOO_BIG = 'Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.';

const FILE_BODY_TOO_BIG = 'Request body exceeded settings.FILE_UPLOAD_MAX_SIZE.';

/** A byte limit and the message of the error raised past it. */
export interface BodyLimit {
  limit: number | null;
  message: string;
}

/** The bound of a body held in memory (`DATA_UPLOAD_MAX_MEMORY_SIZE`, read per request). */
export function memoryLimit(): BodyLimit {
  const limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE;
  return { limit: typeof limit === 'number' ? limit : null, message: BODY_TOO_BIG };
}

/** The bound of a streamed body: `FILE_UPLOAD_MAX_SIZE` for file uploads, else the data limit. */
export function streamLimit(files: boolean): BodyLimit {
  if (!files) return memoryLimit();
  const limit = settings.FILE_UPLOAD_MAX_SIZE;
  return { limit: typeof limit === 'number' ? limit : null, message: FILE_BODY_TOO_BIG };
}

/**
 * The error to report for an error of the raw request stream: `RequestAborted` when the client
 * went away mid-body (node reports it as `aborted` / ECONNRESET), else the error itself.
 */
export function bodyReadError(raw: IncomingMessage, error: Error): Error {
  if (error instanceof RequestAborted) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNRESET' || code === 'ECONNABORTED' || error.message === 'aborted' || (raw.destroyed && !raw.complete)) {
    return new RequestAborted();
  }
  return error;
}

/**
 * Read the whole body of `raw` into one buffer, failing with `RequestDataTooBig` as soon as
 * more than `limit` bytes arrived (the rest is discarded; the response closes the connection).
 * `expectBody` false with a complete message answers an empty buffer at once.
 */
export function readBody(raw: IncomingMessage, expectBody: boolean, { limit, message }: BodyLimit): Promise<Buffer> {
  if (raw.readableEnded || (!expectBody && raw.complete)) return Promise.resolve(Buffer.alloc(0));
  const arrived = arrivedBody(raw);
  if (arrived !== null) {
    if (limit !== null && arrived.length > limit) return Promise.reject(new RequestDataTooBig(message));
    return Promise.resolve(arrived);
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('error', onError);
      raw.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (limit !== null && size > limit) {
        cleanup();
        // Keep discarding what the client still sends; the response closes the connection.
        raw.resume();
        reject(new RequestDataTooBig(message));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(bodyReadError(raw, error));
    };
    const onAborted = (): void => {
      cleanup();
      reject(new RequestAborted());
    };
    raw.on('data', onData);
    raw.on('end', onEnd);
    raw.on('error', onError);
    raw.on('aborted', onAborted);
  });
}

/**
 * The whole body at once when node has parsed all of it (a small body arrives with the head)
 * and nothing has read the stream yet: the chunks node holds, taken with one `read()` (the
 * stream then ends as usual). Else null: the body is read as it arrives.
 */
function arrivedBody(raw: IncomingMessage): Buffer | null {
  if (!raw.complete || raw.destroyed || raw.readableFlowing !== null || raw.readableObjectMode || raw.readableEncoding !== null) return null;
  const buffered = raw.readableLength;
  const chunk: unknown = raw.read();
  if (chunk === null) return buffered === 0 ? Buffer.alloc(0) : null;
  return Buffer.isBuffer(chunk) ? chunk : null;
}

/** `raw` piped through a counter that errors with `RequestDataTooBig` past `limit` bytes. */
export function limitedStream(raw: IncomingMessage, { limit, message }: BodyLimit): Readable {
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
      size += chunk.length;
      if (limit !== null && size > limit) {
        raw.unpipe(counter);
        raw.resume();
        callback(new RequestDataTooBig(message));
        return;
      }
      callback(null, chunk);
    },
  });
  raw.on('error', (error) => counter.destroy(bodyReadError(raw, error)));
  raw.on('aborted', () => {
    // Aborted before the whole body arrived (node also reports 'aborted' for a message it
    // destroys after the end was read).
    if (!raw.readableEnded) counter.destroy(new RequestAborted());
  });
  return raw.pipe(counter);
}

/**
 * The body stream the parsers get (`HttpRequest.stream()`): `raw` within `bound`, read lazily.
 * A consumer that reads it as a stream (`pipe()`, `for await`, `'data'`) gets exactly
 * `limitedStream(raw, bound)`'s chunks and errors; a parser that wants the whole body at once
 * asks `takeWhole()` first, which — when nothing read the stream yet — collects the body with
 * plain `'data'` events (`readBody()`: the same limit, the same `RequestDataTooBig` and
 * `RequestAborted`) instead of running it through a Transform, a pipe and an async iterator.
 */
export class BodyStream extends Readable {
  private source: Readable | null = null;
  private taken = false;

  constructor(private readonly raw: IncomingMessage, private readonly bound: BodyLimit) {
    super();
  }

  /**
   * The whole body, when nothing has read this stream yet (then the stream ends empty);
   * null once it is being read as a stream (read it to its end instead).
   */
  takeWhole(): Promise<Buffer> | null {
    if (this.source !== null || this.taken) return null;
    this.taken = true;
    this.push(null);
    return readBody(this.raw, true, this.bound);
  }

  override _read(): void {
    if (this.taken) return;
    if (this.source === null) {
      const source = limitedStream(this.raw, this.bound);
      this.source = source;
      source.on('data', (chunk: Buffer) => {
        if (!this.push(chunk)) source.pause();
      });
      source.on('end', () => this.push(null));
      source.on('error', (error: Error) => this.destroy(error));
      return;
    }
    this.source.resume();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.source !== null && !this.source.destroyed) this.source.destroy();
    callback(error);
  }
}
