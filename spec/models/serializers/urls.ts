/** URL conf for the relational field specs: detail routes, unversioned and under v1/v2 namespaces. */
import { path, include } from '../../../lib/core/urls';
import { JsonResponse } from '../../../lib/core/http';

const view = (): JsonResponse => new JsonResponse({});

const detailRoutes = [
  path('tags/<int:pk>/', view, { name: 'stag-detail' }),
  path('articles/<int:pk>/', view, { name: 'sarticle-detail' }),
  path('by-name/<str:name>/', view, { name: 'tag-by-name' }),
];

export const urlpatterns = [
  ...detailRoutes,
  path('v1/', include(detailRoutes, { namespace: 'v1' })),
  path('v2/', include(detailRoutes, { namespace: 'v2' })),
];
