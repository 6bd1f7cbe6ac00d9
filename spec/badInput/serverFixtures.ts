/**
 * URL conf and middleware of the bad-input server spec: views that read a body a client may
 * abandon, stream forever, fail mid-stream or send a header node refuses, and middleware that
 * fails while being built or while handling. `events` records what the views saw.
 */
import { HttpResponse, JsonResponse, StreamingHttpResponse, type HttpRequest } from '../../lib/core/http';
import { path } from '../../lib/core/urls';

/** What the views observed, in order (the spec clears it). */
export const events: string[] = [];

/** Resolves when `events` gets an entry matching `pattern`. */
export function waitForEvent(pattern: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const check = (): void => {
      const found = events.find((event) => pattern.test(event));
      if (found) resolve(found);
      else setImmediate(check);
    };
    check();
  });
}

async function upload(request: HttpRequest): Promise<HttpResponse> {
  request.addCleanup(() => {
    events.push('upload-cleanup');
  });
  events.push('upload-start');
  try {
    const body = await request.body();
    events.push(`upload-read:${body.length}`);
    return new JsonResponse({ length: body.length });
  } catch (error) {
    events.push(`upload-error:${(error as Error).name}`);
    throw error;
  }
}

function endless(): HttpResponse {
  async function* chunks(): AsyncGenerator<string> {
    try {
      for (let i = 0; ; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        yield `chunk-${i};`.padEnd(1024, '.');
      }
    } finally {
      events.push('endless-closed');
    }
  }
  return new StreamingHttpResponse(chunks(), { contentType: 'text/plain' });
}

function big(): HttpResponse {
  function* chunks(): Generator<Buffer | string> {
    for (let i = 0; i < 64; i++) {
      yield Buffer.alloc(32 * 1024, 97 + (i % 26));
      yield '';
    }
  }
  return new StreamingHttpResponse(chunks(), { contentType: 'application/octet-stream' });
}

function failing(): HttpResponse {
  async function* chunks(): AsyncGenerator<string> {
    yield 'first;';
    await new Promise((resolve) => setImmediate(resolve));
    throw new Error('the stream broke');
  }
  return new StreamingHttpResponse(chunks(), { contentType: 'text/plain' });
}

function headLogged(): HttpResponse {
  function* chunks(): Generator<string> {
    events.push('head-stream-started');
    yield 'never for HEAD';
  }
  return new StreamingHttpResponse(chunks(), { contentType: 'text/plain' });
}

function emptyStream(): HttpResponse {
  return new StreamingHttpResponse([], { status: 204 });
}

function badHeader(request: HttpRequest): HttpResponse {
  const response = new HttpResponse('fine', { contentType: 'text/plain' });
  response.setHeader('Content-Length', '2');
  response.setHeader('X-Echo', request.query.get('v') ?? '');
  return response;
}

function host(request: HttpRequest): HttpResponse {
  return new HttpResponse(request.getHost(), { contentType: 'text/plain' });
}

function ok(): HttpResponse {
  return new HttpResponse('ok', { contentType: 'text/plain' });
}

export const urlpatterns = [
  path('upload/', upload),
  path('endless/', endless),
  path('big/', big),
  path('failing/', failing),
  path('head-stream/', headLogged),
  path('empty-stream/', emptyStream),
  path('bad-header/', badHeader),
  path('ok/', ok),
  path('host/', host),
];

type GetResponse = (request: HttpRequest) => Promise<HttpResponse>;

/** Fails while the handler builds the middleware chain. */
export class BrokenConstructorMiddleware {
  constructor(_getResponse: GetResponse) {
    throw new Error('middleware could not start');
  }

  /** Never reached. */
  handle(): Promise<HttpResponse> {
    throw new Error('unreachable');
  }
}

/** Throws synchronously (not a rejected promise) from `handle()`. */
export class SyncThrowingMiddleware {
  constructor(private readonly getResponse: GetResponse) {}

  /** Throws for `/ok/?explode=1`, else passes the request on. */
  handle(request: HttpRequest): Promise<HttpResponse> {
    if (request.query.get('explode')) throw new Error('middleware exploded');
    return this.getResponse(request);
  }
}
