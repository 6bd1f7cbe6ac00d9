/**
 * The features app's URL conf, mounted under `/features/`.
 */
import { include, path } from 'api_framework';
import * as nsUrls from './nsUrls';
import * as views from './views';

export const urlpatterns = [
  // parsing
  path('echo/', views.echo, { name: 'echo' }),
  path('upload/<str:filename>/', views.FileUploadView.asView(), { name: 'upload' }),
  // versioning
  path('<str:version>/bookings/', views.BookingsView.asView(), { name: 'bookings' }),
  path('accept-version/', views.AcceptVersionView.asView(), { name: 'accept-version' }),
  path('query-version/', views.QueryVersionView.asView(), { name: 'query-version' }),
  path('host-version/', views.HostVersionView.asView(), { name: 'host-version' }),
  path('ns/v1/', include(nsUrls, { namespace: 'v1' })),
  path('ns/v2/', include(nsUrls, { namespace: 'v2' })),
  // throttling
  path('throttle/anon/', views.AnonThrottleView.asView(), { name: 'throttle-anon' }),
  path('throttle/user/', views.UserThrottleView.asView(), { name: 'throttle-user' }),
  path('throttle/scoped/', views.ScopedThrottleView.asView(), { name: 'throttle-scoped' }),
  // pagination and filtering
  path('snippets/limit/', views.SnippetLimitOffsetList.asView(), { name: 'snippets-limit' }),
  path('snippets/cursor/', views.SnippetCursorList.asView(), { name: 'snippets-cursor' }),
  path('snippets/page/', views.SnippetPageList.asView(), { name: 'snippets-page' }),
  path('snippets/search/', views.SnippetSearchList.asView(), { name: 'snippets-search' }),
  // validation, rendering, errors
  path('validate/', views.ValidateView.asView(), { name: 'validate' }),
  path('render/', views.RenderView.asView(), { name: 'render' }),
  path('errors/unavailable/', views.UnavailableView.asView(), { name: 'errors-unavailable' }),
  path('errors/handler/', views.HandlerView.asView(), { name: 'errors-handler' }),
  path('errors/crash/', views.CrashView.asView(), { name: 'errors-crash' }),
  // permissions
  path('admin-only/', views.AdminOnlyView.asView(), { name: 'admin-only' }),
  path('anon-only/', views.AnonOnlyView.asView(), { name: 'anon-only' }),
  path('either/', views.EitherView.asView(), { name: 'either' }),
];
