/**
 * The schema view: `getSchemaView({...})` answers the project's OpenAPI 3.1 document as YAML
 * (`application/vnd.oai.openapi`) or JSON (`application/vnd.oai.openapi+json`), chosen by the
 * Accept header or `?format=openapi|openapi-json`. Unless `public`, the document lists only
 * the operations the requesting user's permissions allow.
 *
 * @example
 * export const urlpatterns = [
 *   path('schema/', getSchemaView({ title: 'Snippets API', version: '1.0.0' }), { name: 'openapi-schema' }),
 * ];
 */
import type { ViewFunction, UrlConfModule, UrlPattern } from '../core/urls';
import { PermissionDenied } from '../exceptions';
import type { AuthenticationClass } from '../authentication';
import type { PermissionClass } from '../permissions';
import type { RendererClass } from '../renderers';
import type { Request } from '../request';
import { Response } from '../response';
import { apiSettings } from '../settings';
import { APIView, type Kwargs } from '../views';
import { SchemaGenerator, type SchemaGeneratorOptions } from './generator';
import { JSONOpenAPIRenderer, OpenAPIRenderer } from './renderers';
import type { HttpResponse } from '../core/http';

/** Serves the document its generator builds; excluded from the documents itself. */
export class SchemaView extends APIView {
  /** Model permissions do not apply to the schema view. */
  ignoreModelPermissions = true;
  /** The schema view is not part of the documents it serves. */
  override schema = null;
  /** The generator of the served document (set by `getSchemaView`). */
  schemaGenerator: SchemaGenerator | null = null;
  /** Serve every operation, whoever asks (true), or only those the user may use (false). */
  public = false;

  /** The YAML and JSON document renderers, plus the browsable API's when it is a default renderer. */
  override getRendererClasses(): RendererClass[] {
    if (this.rendererClasses) return this.rendererClasses;
    const classes: RendererClass[] = [OpenAPIRenderer, JSONOpenAPIRenderer];
    const browsable = apiSettings.DEFAULT_RENDERER_CLASSES.find((Renderer) => new Renderer().format === 'api');
    if (browsable) classes.push(browsable);
    return classes;
  }

  /** GET: the document. */
  async get(request: Request, _kwargs: Kwargs): Promise<Response> {
    if (!this.schemaGenerator) throw new Error('SchemaView needs a schemaGenerator: build it with getSchemaView({...}).');
    const document = await this.schemaGenerator.getSchema(request, this.public);
    if (!document) throw new PermissionDenied();
    return new Response(document);
  }

  /** Errors are rendered by the default renderers: the document renderers only render documents. */
  override async handleException(exc: unknown): Promise<HttpResponse> {
    this.rendererClasses = apiSettings.DEFAULT_RENDERER_CLASSES;
    if (this.request) {
      const [renderer, mediaType] = this.performContentNegotiation(this.request, true);
      this.request.acceptedRenderer = renderer;
      this.request.acceptedMediaType = mediaType;
    }
    return super.handleException(exc);
  }
}

/** Options of `getSchemaView()`. */
export interface SchemaViewOptions extends SchemaGeneratorOptions {
  /** Serve every operation to everyone (default false: only what the user's permissions allow). */
  public?: boolean;
  /** The generator class (default `SchemaGenerator`). */
  generatorClass?: new (options: SchemaGeneratorOptions) => SchemaGenerator;
  /** Renderer classes instead of YAML + JSON (+ the browsable API). */
  rendererClasses?: RendererClass[];
  /** Authentication of the schema view itself (default: DEFAULT_AUTHENTICATION_CLASSES). */
  authenticationClasses?: AuthenticationClass[];
  /** Permissions of the schema view itself (default: DEFAULT_PERMISSION_CLASSES). */
  permissionClasses?: PermissionClass[];
  patterns?: readonly UrlPattern[] | null;
  urlconf?: string | UrlConfModule | null;
}

/** The view function serving the project's OpenAPI document (the original's `get_schema_view`). */
export function getSchemaView(options: SchemaViewOptions = {}): ViewFunction {
  const { public: isPublic = false, generatorClass = SchemaGenerator, rendererClasses, authenticationClasses, permissionClasses, ...generatorOptions } = options;
  const initkwargs: Kwargs = { schemaGenerator: new generatorClass(generatorOptions), public: isPublic };
  if (rendererClasses) initkwargs.rendererClasses = rendererClasses;
  if (authenticationClasses) initkwargs.authenticationClasses = authenticationClasses;
  if (permissionClasses) initkwargs.permissionClasses = permissionClasses;
  return SchemaView.asView(initkwargs);
}
