/**
 * Parsers are used to parse the content of incoming HTTP requests.
 *
 * They give us a generic way of being able to handle various media types on the request,
 * such as form content or JSON encoded data.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type busboy from 'busboy';
import { settings } from './core/conf';
import { MultiValueDict, QueryDict, RequestDataTooBig, TooManyFieldsSent, type UploadedFile } from './core/http';
import { BodyStream } from './core/http/body';
import { ParseError } from './exceptions';
import { apiSettings } from './settings';
import { loads } from './utils/json';
import type { ParserContext } from './request';

/** Parsed form data and files, as multipart parsers return them. */
export class DataAndFiles {
  readonly isDataAndFiles = true;

  constructor(
    readonly data: QueryDict | Record<string, unknown>,
    readonly files: MultiValueDict<UploadedFile>,
  ) {}
}

/** A parser class, as in `parserClasses` and `DEFAULT_PARSER_CLASSES`. */
export type ParserClass = new () => BaseParser;

/**
 * All parsers should extend `BaseParser`, specifying a `mediaType` attribute, and
 * overriding the `parse()` method.
 */
export abstract class BaseParser {
  /** The media type this parser handles (matched against Content-Type). */
  abstract readonly mediaType: string;

  /**
   * True for parsers that stream uploaded files to disk (multipart, file upload): their body
   * is bounded by `FILE_UPLOAD_MAX_SIZE` rather than `DATA_UPLOAD_MAX_MEMORY_SIZE`.
   */
  readonly uploadsFiles: boolean = false;

  /** Given a stream to read from, return the parsed representation (or `DataAndFiles`). */
  abstract parse(stream: Readable, mediaType: string, parserContext: ParserContext): Promise<unknown>;
}

async function readAll(stream: Readable): Promise<Buffer> {
  // A request's body that nothing has read yet is collected without the stream machinery.
  const whole = stream instanceof BodyStream ? stream.takeWhole() : null;
  if (whole !== null) return whole;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

/** The valid range of the byte after `lead` in UTF-8 (excludes overlong forms and surrogates). */
function secondByteRange(lead: number): [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

/**
 * Why `bytes` is not UTF-8, worded as the original's codec error: the first bad sequence, its
 * position and the reason (`invalid start byte`, `invalid continuation byte`, `unexpected end of data`).
 */
function utf8Error(bytes: Buffer): string {
  const describe = (start: number, end: number, reason: string): string =>
    start === end
      ? `'utf-8' codec can't decode byte 0x${bytes[start].toString(16).padStart(2, '0')} in position ${start}: ${reason}`
      : `'utf-8' codec can't decode bytes in position ${start}-${end}: ${reason}`;
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i];
    if (lead < 0x80) {
      i += 1;
      continue;
    }
    const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    if (length === 0) return describe(i, i, 'invalid start byte');
    for (let k = 1; k < length; k++) {
      if (i + k >= bytes.length) return describe(i, bytes.length - 1, 'unexpected end of data');
      const [low, high] = k === 1 ? secondByteRange(lead) : [0x80, 0xbf];
      if (bytes[i + k] < low || bytes[i + k] > high) return describe(i, i + k - 1, 'invalid continuation byte');
    }
    i += length;
  }
  return "'utf-8' codec can't decode the body";
}

/**
 * A strict decoder for a Content-Type charset, accepting the original's spellings (`latin-1`,
 * `utf_8`); null for a charset nobody knows (then ignored, as the host framework does).
 */
function decoderFor(encoding: string, fatal = true): TextDecoder | null {
  for (const label of [encoding, encoding.replace(/_/g, '-'), encoding.replace(/[-_]/g, '')]) {
    try {
      return new TextDecoder(label, { fatal });
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
  }
  return null;
}

function decode(buffer: Buffer, encoding: string | undefined): string {
  const decoder = (encoding ? decoderFor(encoding) : null) ?? new TextDecoder('utf-8', { fatal: true });
  try {
    return decoder.decode(buffer);
  } catch {
    if (decoder.encoding === 'utf-8') throw new ParseError(`JSON parse error - ${utf8Error(buffer)}`);
    const firstBad = Math.max(buffer.findIndex((byte) => byte >= 0x80), 0);
    throw new ParseError(
      `JSON parse error - '${decoder.encoding}' codec can't decode byte 0x${buffer[firstBad].toString(16).padStart(2, '0')} in position ${firstBad}: invalid start byte`,
    );
  }
}

/** Parses JSON-serialized data. STRICT_JSON (or `strict`) rejects NaN and infinities. */
export class JSONParser extends BaseParser {
  readonly mediaType: string = 'application/json';
  /** Reject NaN and infinities; undefined reads STRICT_JSON. */
  strict?: boolean;

  /** Parse the incoming stream as JSON and return the resulting data. */
  async parse(stream: Readable, _mediaType: string, parserContext: ParserContext): Promise<unknown> {
    const text = decode(await readAll(stream), parserContext.encoding);
    try {
      return loads(text, { strict: this.strict ?? apiSettings.STRICT_JSON, maxDepth: apiSettings.JSON_MAX_DEPTH });
    } catch (error) {
      throw new ParseError(`JSON parse error - ${(error as Error).message}`);
    }
  }
}

/** Parser for form data (`application/x-www-form-urlencoded`): returns a `QueryDict`. */
export class FormParser extends BaseParser {
  readonly mediaType: string = 'application/x-www-form-urlencoded';

  /** Parse the incoming stream as a URL encoded form. */
  async parse(stream: Readable, _mediaType: string, parserContext: ParserContext): Promise<QueryDict> {
    const buffer = await readAll(stream);
    const encoding = parserContext.encoding || 'utf-8';
    // Undecodable bytes become U+FFFD, as in the host framework; an unknown charset is ignored.
    const decoder = encoding.toLowerCase() === 'utf-8' ? null : decoderFor(encoding, false);
    const text = decoder ? decoder.decode(buffer) : buffer.toString('utf8');
    return QueryDict.parse(text);
  }
}

/** A file received in a request body, held in memory or (when large) in a temporary file. */
export class ReceivedFile implements UploadedFile {
  constructor(
    readonly name: string,
    readonly contentType: string,
    readonly size: number,
    readonly charset: string | null,
    private readonly buffer: Buffer | null,
    /** The temporary file holding the content, when it was too large for memory. */
    readonly path: string | null = null,
  ) {}

  /** The whole content. */
  async read(): Promise<Buffer> {
    if (this.buffer) return this.buffer;
    if (this.path) return fsp.readFile(this.path);
    return Buffer.alloc(0);
  }

  /** Delete the temporary file, if any. */
  async close(): Promise<void> {
    if (this.path) await fsp.rm(this.path, { force: true });
  }

  toString(): string {
    return this.name;
  }

  /** JSON shows the file name. */
  toJSON(): string {
    return this.name;
  }
}

/** Collects one uploaded file: memory up to FILE_UPLOAD_MAX_MEMORY_SIZE, then a temporary file. */
class FileCollector {
  private chunks: Buffer[] = [];
  private size = 0;
  private tempPath: string | null = null;
  private out: ReturnType<typeof createWriteStream> | null = null;

  /**
   * `onTempFile` is told the path of the temporary file as soon as it exists (the parsers
   * register its removal with the request, so it goes when the request finishes).
   */
  constructor(
    private readonly maxMemory: number,
    private readonly onTempFile: (tempPath: string) => void = () => undefined,
  ) {}

  async write(chunk: Buffer): Promise<void> {
    this.size += chunk.length;
    if (!this.out && this.size > this.maxMemory) {
      const dir = settings.FILE_UPLOAD_TEMP_DIR || os.tmpdir();
      this.tempPath = path.join(dir, `upload-${randomUUID()}.upload`);
      this.out = createWriteStream(this.tempPath);
      this.onTempFile(this.tempPath);
      for (const previous of this.chunks) this.out.write(previous);
      this.chunks = [];
    }
    if (this.out) {
      if (!this.out.write(chunk)) await new Promise<void>((resolve) => this.out?.once('drain', resolve));
    } else {
      this.chunks.push(chunk);
    }
  }

  async finish(name: string, contentType: string, charset: string | null): Promise<ReceivedFile> {
    if (this.out) {
      const out = this.out;
      await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
      return new ReceivedFile(name, contentType, this.size, charset, null, this.tempPath);
    }
    return new ReceivedFile(name, contentType, this.size, charset, Buffer.concat(this.chunks), null);
  }
}

/** Remove `tempPath` when the request of `parserContext` finishes (a no-op without a request). */
function removeWhenFinished(parserContext: ParserContext): (tempPath: string) => void {
  return (tempPath) => parserContext.request?.httpRequest.addCleanup(() => fsp.rm(tempPath, { force: true }));
}

function paramOf(mediaType: string, name: string): string | undefined {
  for (const part of mediaType.split(';').slice(1)) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim().toLowerCase() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    return value;
  }
  return undefined;
}

/**
 * Parser for multipart form data, which may include file data. Files go to memory up to
 * FILE_UPLOAD_MAX_MEMORY_SIZE and to a temporary file beyond; non-file fields are limited
 * by DATA_UPLOAD_MAX_NUMBER_FIELDS and DATA_UPLOAD_MAX_MEMORY_SIZE, as in the host framework.
 */
export class MultiPartParser extends BaseParser {
  readonly mediaType: string = 'multipart/form-data';
  override readonly uploadsFiles: boolean = true;

  /** Parse the stream as multipart: returns `DataAndFiles` (a `QueryDict` and the files). */
  async parse(stream: Readable, mediaType: string, parserContext: ParserContext): Promise<DataAndFiles> {
    const boundary = paramOf(mediaType, 'boundary');
    if (!mediaType.toLowerCase().startsWith('multipart/')) {
      throw new ParseError(`Multipart form parse error - Invalid Content-Type: ${mediaType}`);
    }
    if (!boundary || !/^[ -~]{0,200}[!-~]$/.test(boundary)) {
      throw new ParseError(`Multipart form parse error - Invalid boundary in multipart: ${boundary ?? 'None'}`);
    }
    const maxFields = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS;
    const maxMemory = settings.DATA_UPLOAD_MAX_MEMORY_SIZE;
    const fileMemory = settings.FILE_UPLOAD_MAX_MEMORY_SIZE;

    const data = new QueryDict().copy();
    const files = new MultiValueDict<UploadedFile>();
    const pending: Array<Promise<void>> = [];
    let fieldCount = 0;
    let fieldBytes = 0;

    await new Promise<void>((resolve, reject) => {
      let failed = false;
      const fail = (error: unknown): void => {
        if (failed) return;
        failed = true;
        stream.unpipe(parser);
        stream.resume();
        reject(error);
      };
      let parser: busboy.Busboy;
      try {
        // busboy loads on the first multipart body.
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        parser = (require('busboy') as typeof busboy)({ headers: { 'content-type': mediaType }, defParamCharset: 'utf8', preservePath: false });
      } catch (error) {
        throw new ParseError(`Multipart form parse error - ${(error as Error).message}`);
      }
      parser.on('field', (name: string | undefined, value) => {
        // A part without a name (no Content-Disposition, or no name= in it) is skipped, as the
        // host framework does; reading its name would throw inside busboy's stream and crash
        // the process.
        if (name === undefined) return;
        // busboy gives no value for a part whose charset it cannot decode (`charset=bogus`).
        if (typeof value !== 'string') {
          fail(new ParseError(`Multipart form parse error - Undecodable value of field '${name}' (unknown charset)`));
          return;
        }
        fieldCount += 1;
        if (maxFields !== null && fieldCount > maxFields) {
          fail(new TooManyFieldsSent('The number of GET/POST parameters exceeded settings.DATA_UPLOAD_MAX_NUMBER_FIELDS.'));
          return;
        }
        fieldBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
        if (maxMemory !== null && fieldBytes > maxMemory) {
          fail(new RequestDataTooBig('Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.'));
          return;
        }
        data.appendList(name, value);
      });
      parser.on('file', (name: string | undefined, fileStream, info) => {
        const filename = info.filename;
        if (!filename || name === undefined) {
          // A truncated form destroys the part's stream with an error (busboy reports it on the
          // parser too): without a listener it would be thrown out of the process.
          fileStream.on('error', () => undefined);
          fileStream.resume();
          return;
        }
        const collector = new FileCollector(fileMemory, removeWhenFinished(parserContext));
        const done = (async () => {
          for await (const chunk of fileStream) await collector.write(chunk as Buffer);
          const charset = paramOf(`x;${info.mimeType ?? ''}`, 'charset') ?? null;
          const file = await collector.finish(path.basename(filename), info.mimeType ?? 'application/octet-stream', charset);
          files.appendList(name, file);
        })();
        done.catch(fail);
        pending.push(done);
      });
      parser.on('error', (error: Error) => fail(new ParseError(`Multipart form parse error - ${error.message}`)));
      parser.on('close', () => {
        Promise.all(pending).then(() => {
          if (!failed) resolve();
        }, fail);
      });
      stream.on('error', (error) => fail(error));
      stream.pipe(parser);
    });
    return new DataAndFiles(data, files);
  }
}

/** Decode a Content-Disposition `filename*` value (RFC 5987: `utf-8''%e2%82%ac.txt`). */
function decodeExtendedValue(value: string): string {
  const match = /^([^']*)'[^']*'(.*)$/.exec(value);
  if (!match) return value;
  try {
    return decodeURIComponent(match[2]);
  } catch {
    return match[2];
  }
}

/** Parser for file upload data: the whole body is one file, named by the URL or Content-Disposition. */
export class FileUploadParser extends BaseParser {
  readonly mediaType: string = '*/*';
  override readonly uploadsFiles: boolean = true;
  /** The error messages of this parser. */
  errors = {
    unhandled: 'FILE_UPLOAD_HANDLER is unable to handle the file upload.',
    no_filename: 'Missing filename. Request should include a Content-Disposition header with a filename parameter.',
  };

  /** Treat all incoming bytes as an uploaded file: returns `DataAndFiles({}, {file})`. */
  async parse(stream: Readable, mediaType: string, parserContext: ParserContext): Promise<DataAndFiles> {
    const filename = this.getFilename(stream, mediaType, parserContext);
    if (!filename) throw new ParseError(this.errors.no_filename);
    const collector = new FileCollector(settings.FILE_UPLOAD_MAX_MEMORY_SIZE, removeWhenFinished(parserContext));
    for await (const chunk of stream) await collector.write(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
    const contentType = mediaType.split(';')[0].trim();
    const file = await collector.finish(filename, contentType, paramOf(mediaType, 'charset') ?? null);
    const files = new MultiValueDict<UploadedFile>([['file', file]]);
    return new DataAndFiles({}, files);
  }

  /**
   * The filename: the `filename` URL keyword argument, else the Content-Disposition header's
   * `filename*` or `filename` parameter.
   */
  getFilename(_stream: Readable, _mediaType: string, parserContext: ParserContext): string | null {
    const fromUrl = parserContext.kwargs?.filename;
    if (typeof fromUrl === 'string' && fromUrl) return fromUrl;
    const disposition = parserContext.request?.META.HTTP_CONTENT_DISPOSITION;
    if (!disposition) return null;
    const extended = paramOf(disposition, 'filename*');
    if (extended) return decodeExtendedValue(extended);
    return paramOf(disposition, 'filename') ?? null;
  }
}
