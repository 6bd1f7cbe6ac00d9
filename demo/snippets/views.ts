/**
 * The tutorial's viewsets: snippets (read and write, owners edit their own) and users
 * (read-only).
 */
import { permissions, renderers, viewsets, Response, type Request } from 'api_framework';
import { User } from 'api_framework/contrib/auth';
import { Snippet } from './models';
import { IsOwnerOrReadOnly } from './permissions';
import { SnippetSerializer, UserSerializer } from './serializers';

/**
 * This viewset automatically provides `list`, `create`, `retrieve`,
 * `update` and `destroy` actions.
 *
 * Additionally we also provide an extra `highlight` action.
 */
export class SnippetViewSet extends viewsets.ModelViewSet<Snippet, SnippetSerializer> {
  static override description = [
    'This viewset automatically provides `list`, `create`, `retrieve`,',
    '`update` and `destroy` actions.',
    '',
    'Additionally we also provide an extra `highlight` action.',
  ].join('\n');

  override queryset = Snippet.objects.all();
  override serializerClass = SnippetSerializer;
  override permissionClasses = [permissions.IsAuthenticatedOrReadOnly, IsOwnerOrReadOnly];

  /** The snippet's highlighted HTML document, as it was stored on save. */
  @viewsets.action({ detail: true, rendererClasses: [renderers.StaticHTMLRenderer] })
  async highlight(_request: Request): Promise<Response> {
    const snippet = await this.getObject();
    return new Response(snippet.highlighted);
  }

  /** New snippets belong to the user who creates them. */
  override async performCreate(serializer: SnippetSerializer): Promise<void> {
    await serializer.save({ owner: this.request.user });
  }
}

/**
 * This viewset automatically provides `list` and `retrieve` actions.
 */
export class UserViewSet extends viewsets.ReadOnlyModelViewSet<User> {
  static override description = 'This viewset automatically provides `list` and `retrieve` actions.';

  override queryset = User.objects.all();
  override serializerClass = UserSerializer;
}
