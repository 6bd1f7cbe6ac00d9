/**
 * The features app: one small view per part of the framework that the quickstart and the
 * tutorial do not touch (parsing, versioning, throttling, pagination, filtering, validation,
 * rendering, errors, permission composition).
 */
import {
  apiView, exceptions, filters, generics, parsers, permissions, reverse, throttling, versioning, views, APIView,
  QueryDict, Response, type Request,
} from 'api_framework';
import { Snippet } from '../snippets/models';
import { SnippetSerializer } from '../snippets/serializers';
import { ServiceUnavailable, statusCodeExceptionHandler } from './exceptions';
import { SnippetCursorPagination, SnippetLimitOffsetPagination, SnippetPageNumberPagination } from './pagination';
import { FeatureSerializer } from './serializers';
import { FeaturesAnonThrottle, FeaturesUserThrottle } from './throttles';
import { AcceptVersioning, BookingsVersioning, HostVersioning, QueryVersioning } from './versioning';

// ---- parsing ------------------------------------------------------------------------------

/**
 * Echo the parsed request: method, media type, data, files and query.
 */
export const echo = apiView(['GET', 'POST', 'PUT'], {
  parserClasses: [parsers.JSONParser, parsers.FormParser, parsers.MultiPartParser],
  permissionClasses: [permissions.AllowAny],
  description: 'Echo the parsed request: method, media type, data, files and query.',
})(async function echo(request: Request): Promise<Response> {
  let data = request.data;
  if (data instanceof QueryDict) {
    // form and multipart bodies: field -> last value (files are listed separately)
    data = Object.fromEntries(request.POST.entries());
  }
  const files: Record<string, { name: string; size: number }> = {};
  for (const [name, file] of request.files.entries()) files[name] = { name: file.name, size: file.size };
  return new Response({
    method: request.method,
    content_type: request.contentType.split(';')[0].trim() || null,
    data,
    files,
    query: Object.fromEntries(request.queryParams.lists()),
  });
});

/**
 * Store nothing; answer the name and size of the raw uploaded body.
 */
export class FileUploadView extends APIView {
  static override description = 'Store nothing; answer the name and size of the raw uploaded body.';
  override parserClasses = [parsers.FileUploadParser];

  /** `PUT /features/upload/<filename>/` with the file as the body. */
  async put(request: Request): Promise<Response> {
    const file = request.files.get('file');
    if (file === undefined) throw new exceptions.ParseError('No file was submitted.');
    return new Response({ filename: file.name, size: file.size });
  }
}

// ---- versioning ---------------------------------------------------------------------------

/** Answers the request's version and this view's own URL under that version. */
function versionResponse(request: Request, viewName: string): Response {
  return new Response({ version: request.version, self: reverse.reverse(viewName, { request }) });
}

/** URL path versioning: `/features/v1/bookings/`. */
export class BookingsView extends APIView {
  override versioningClass = BookingsVersioning;

  /** The version from the URL. */
  get(request: Request): Response {
    return versionResponse(request, 'bookings');
  }
}

/** Accept header versioning: `Accept: application/json; version=2.0`. */
export class AcceptVersionView extends APIView {
  override versioningClass = AcceptVersioning;

  /** The version from the Accept header. */
  get(request: Request): Response {
    return versionResponse(request, 'accept-version');
  }
}

/** Query parameter versioning: `?version=2`. */
export class QueryVersionView extends APIView {
  override versioningClass = QueryVersioning;

  /** The version from the query string. */
  get(request: Request): Response {
    return versionResponse(request, 'query-version');
  }
}

/** Host name versioning: `Host: v1.example.com`. */
export class HostVersionView extends APIView {
  override versioningClass = HostVersioning;

  /** The version from the host name. */
  get(request: Request): Response {
    return versionResponse(request, 'host-version');
  }
}

/** Namespace versioning: `/features/ns/v1/items/` and `/features/ns/v2/items/`. */
export class ItemsView extends APIView {
  override versioningClass = versioning.NamespaceVersioning;

  /** The version from the URL namespace. */
  get(request: Request): Response {
    return versionResponse(request, 'items');
  }
}

// ---- throttling ---------------------------------------------------------------------------

/** Anonymous clients: `features_anon`. */
export class AnonThrottleView extends APIView {
  override throttleClasses = [FeaturesAnonThrottle];

  /** `{"ok": true}` until throttled. */
  get(): Response {
    return new Response({ ok: true });
  }
}

/** Per user: `features_user`. */
export class UserThrottleView extends APIView {
  override throttleClasses = [FeaturesUserThrottle];

  /** `{"ok": true}` until throttled. */
  get(): Response {
    return new Response({ ok: true });
  }
}

/** A scope named by the view: `features_burst`. */
export class ScopedThrottleView extends APIView {
  override throttleClasses = [throttling.ScopedRateThrottle];
  override throttleScope = 'features_burst';

  /** `{"ok": true}` until throttled. */
  get(): Response {
    return new Response({ ok: true });
  }
}

// ---- pagination and filtering over snippets -----------------------------------------------

/** `?limit=&offset=` over snippets by id. */
export class SnippetLimitOffsetList extends generics.ListAPIView<Snippet> {
  override queryset = Snippet.objects.orderBy('id');
  override serializerClass = SnippetSerializer;
  override paginationClass = SnippetLimitOffsetPagination;
}

/** `?cursor=` over snippets, newest first. */
export class SnippetCursorList extends generics.ListAPIView<Snippet> {
  override queryset = Snippet.objects.all();
  override serializerClass = SnippetSerializer;
  override paginationClass = SnippetCursorPagination;
}

/** `?page=&page_size=` over snippets by id. */
export class SnippetPageList extends generics.ListAPIView<Snippet> {
  override queryset = Snippet.objects.orderBy('id');
  override serializerClass = SnippetSerializer;
  override paginationClass = SnippetPageNumberPagination;
}

/** `?search=` and `?ordering=` over snippets, not paginated. */
export class SnippetSearchList extends generics.ListAPIView<Snippet> {
  override queryset = Snippet.objects.all();
  override serializerClass = SnippetSerializer;
  override filterBackends = [filters.SearchFilter, filters.OrderingFilter];
  override searchFields = ['title', '=language', 'owner__username'];
  override orderingFields = ['id', 'title', 'created'];
  override ordering = ['id'];
}

// ---- validation, rendering and errors -----------------------------------------------------

/**
 * Validate a payload with many field types and answer the validated data.
 */
export class ValidateView extends generics.GenericAPIView {
  static override description = 'Validate a payload with many field types and answer the validated data.';
  override serializerClass = FeatureSerializer;

  /** 200 with the serializer's data, or the standard 400 body. */
  async post(request: Request): Promise<Response> {
    const serializer = this.getSerializer({ data: request.data });
    await serializer.isValid({ raiseException: true });
    return new Response(await serializer.getData());
  }
}

/** Unicode, numbers, null and nested objects, rendered as compact raw-unicode JSON. */
export class RenderView extends APIView {
  /** A fixed document. */
  get(): Response {
    return new Response({ unicode: 'é ✓ 漢字', list: [1, 2.5, null, true], nested: { a: 'b' } });
  }
}

/** Raises the custom `ServiceUnavailable` exception (503). */
export class UnavailableView extends APIView {
  /** Always fails. */
  get(): Response {
    throw new ServiceUnavailable();
  }
}

/** Uses an exception handler that adds `status_code` to error bodies. */
export class HandlerView extends APIView {
  override getExceptionHandler(): views.ExceptionHandler {
    return statusCodeExceptionHandler;
  }

  /** Always refuses. */
  get(): Response {
    throw new exceptions.PermissionDenied();
  }
}

/** Raises an unexpected error: the project's JSON 500 view answers. */
export class CrashView extends APIView {
  /** Always crashes. */
  get(): Response {
    throw new Error('the features app crashed on purpose');
  }
}

// ---- permission composition ---------------------------------------------------------------

/** Staff only. */
export class AdminOnlyView extends APIView {
  override permissionClasses = [permissions.IsAdminUser];

  /** `{"ok": true}` for staff. */
  get(): Response {
    return new Response({ ok: true });
  }
}

/** Anonymous clients only: NOT IsAuthenticated. */
export class AnonOnlyView extends APIView {
  override permissionClasses = [permissions.IsAuthenticated.not()];

  /** `{"ok": true}` for anonymous clients. */
  get(): Response {
    return new Response({ ok: true });
  }
}

/** IsAdminUser OR IsAuthenticatedOrReadOnly. */
export class EitherView extends APIView {
  override permissionClasses = [permissions.IsAdminUser.or(permissions.IsAuthenticatedOrReadOnly)];

  /** Anyone may read. */
  get(): Response {
    return new Response({ ok: true });
  }

  /** Authenticated users may write. */
  post(): Response {
    return new Response({ ok: true });
  }
}
