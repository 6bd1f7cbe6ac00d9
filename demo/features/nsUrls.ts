/**
 * Included twice by the features URL conf, under the instance namespaces `v1` and `v2`
 * (NamespaceVersioning reads `request.version` from the namespace).
 */
import { path } from 'api_framework';
import { ItemsView } from './views';

export const appName = 'items';

export const urlpatterns = [
  path('items/', ItemsView.asView(), { name: 'items' }),
];
