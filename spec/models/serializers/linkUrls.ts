/**
 * URL conf for the hyperlink memo specs: article and tag detail routes with format suffixes,
 * an article route by title, and the same routes under the `v1`/`v2` namespaces.
 */
import { include, path } from '../../../lib/core/urls';
import { JsonResponse } from '../../../lib/core/http';
import { formatSuffixPatterns } from '../../../lib/urlpatterns';

const view = (): JsonResponse => new JsonResponse({});

const detailRoutes = [
  path('links/articles/<int:pk>/', view, { name: 'sarticle-detail' }),
  path('links/tags/<int:pk>/', view, { name: 'stag-detail' }),
  path('links/by-title/<str:title>/', view, { name: 'sarticle-by-title' }),
];

export const urlpatterns = formatSuffixPatterns([
  ...detailRoutes,
  path('v1/', include(detailRoutes, { namespace: 'v1' })),
  path('v2/', include(detailRoutes, { namespace: 'v2' })),
]);
