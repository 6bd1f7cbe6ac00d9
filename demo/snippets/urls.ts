/**
 * The tutorial's router: `/snippets/` and `/users/` with an API root, at the site root.
 */
import { routers } from 'api_framework';
import { SnippetViewSet, UserViewSet } from './views';

// Create a router and register our viewsets with it.
export const router = new routers.DefaultRouter();
router.register('snippets', SnippetViewSet, { basename: 'snippet' });
router.register('users', UserViewSet, { basename: 'user' });

export const urlpatterns = router.urls;
