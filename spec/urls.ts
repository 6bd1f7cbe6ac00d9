/**
 * The test suite's root URL conf (settings.ROOT_URLCONF = 'spec.urls'). Suites that need their
 * own patterns point ROOT_URLCONF at a fixture module with `overrideSettings`; shared patterns
 * may be added here.
 */
import { path } from '../lib/core/urls';
import { JsonResponse } from '../lib/core/http';

export const urlpatterns = [
  path('ping/', () => new JsonResponse({ ping: 'pong' }), { name: 'ping' }),
];
