/**
 * The quickstart's router, mounted by the project under `/quickstart/` with the URL
 * namespace `quickstart`.
 */
import { routers } from 'api_framework';
import { GroupViewSet, UserViewSet } from './views';

export const router = new routers.DefaultRouter();
router.register('users', UserViewSet, { basename: 'user' });
router.register('groups', GroupViewSet, { basename: 'group' });

export const urlpatterns = router.urls;
