/**
 * The demo's root URL conf: the quickstart under `/quickstart/`, session login for the
 * browsable API under `/api-auth/` (and its static files), the token endpoint, the admin
 * under `/admin/`, the features app, the OpenAPI document at `/schema/` (and its docs page at
 * `/schema/docs/`), and the tutorial at the root.
 */
import { exceptions, getSchemaView, include, path, schemas } from 'api_framework';
import { adminSite } from 'api_framework/contrib/admin';
import { obtainAuthToken } from 'api_framework/contrib/authtoken';
import { staticfilesUrlpatterns, urls as apiAuthUrls } from 'api_framework/contrib/browsable';
import * as featuresUrls from './features/urls';
import { router as quickstartRouter } from './quickstart/urls';
import { router as tutorialRouter } from './snippets/urls';

export const urlpatterns = [
  // the browsable API's CSS and JavaScript, under STATIC_URL
  ...staticfilesUrlpatterns(),
  path('quickstart/', include({ urlpatterns: quickstartRouter.urls, appName: 'quickstart' }, { namespace: 'quickstart' })),
  path('api-auth/', include(apiAuthUrls, { namespace: 'api_framework' })),
  path('api-token-auth/', obtainAuthToken),
  // the staff-only admin: users, groups and tokens
  path('admin/', adminSite.urls),
  path('features/', include(featuresUrls)),
  // the OpenAPI 3.1 document of the whole project (YAML or JSON by negotiation or ?format=);
  // public: every operation is listed, also those the visitor may not use yet
  path('schema/', getSchemaView({
    title: 'api_framework demo',
    description: 'The tutorial, the quickstart and the features app of the demo project.',
    public: true,
  }), { name: 'openapi-schema' }),
  // an interactive reference of it (Swagger UI, served by the framework)
  path('schema/docs/', include(schemas.docsUrlpatterns({ title: 'api_framework demo', schemaUrl: '/schema/' }))),
  path('', include(tutorialRouter.urls)),
];

export const handler400 = exceptions.badRequest;
export const handler500 = exceptions.serverError;
