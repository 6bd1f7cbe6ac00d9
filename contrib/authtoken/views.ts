/**
 * `ObtainAuthToken`: POST `username` and `password`, get `{"token": "<key>"}`.
 *
 * @example
 *     path('api-token-auth/', obtainAuthToken)
 */
import { FormParser, JSONParser, MultiPartParser, type ParserClass } from '../../lib/parsers';
import type { PermissionClass } from '../../lib/permissions';
import type { ThrottleClass } from '../../lib/throttling';
import { JSONRenderer, type RendererClass } from '../../lib/renderers';
import type { Request } from '../../lib/request';
import { Response } from '../../lib/response';
import { APIView } from '../../lib/views';
import type { AuthUser } from '../../lib/core/http';
import { Token } from './models';
import { AuthTokenSerializer } from './serializers';

/**
 * Returns the token of the user whose credentials are posted, creating it when missing. It
 * always speaks JSON and has no permissions and no throttling; subclass to add throttles or
 * response fields (override `post()`).
 */
export class ObtainAuthToken extends APIView {
  override throttleClasses: ThrottleClass[] = [];
  override permissionClasses: PermissionClass[] = [];
  override parserClasses: ParserClass[] = [FormParser, MultiPartParser, JSONParser];
  override rendererClasses: RendererClass[] = [JSONRenderer];
  serializerClass = AuthTokenSerializer;

  /** The context handed to the serializer: request, format and view. */
  getSerializerContext(): Record<string, unknown> {
    return { request: this.request, format: this.formatKwarg, view: this };
  }

  /** Build the credentials serializer with the view's context. */
  getSerializer(options: { data?: unknown } = {}): AuthTokenSerializer {
    return new this.serializerClass({ ...options, context: this.getSerializerContext() });
  }

  /** Validate the credentials and answer the user's token. */
  async post(request: Request): Promise<Response> {
    const serializer = this.getSerializer({ data: request.data });
    await serializer.isValid({ raiseException: true });
    const user = serializer.validatedData.user as AuthUser;
    const [token] = await Token.getOrCreateForUser(user);
    return new Response({ token: token.key });
  }
}

/** The view function of `ObtainAuthToken`, for URL confs. */
export const obtainAuthToken = ObtainAuthToken.asView();
