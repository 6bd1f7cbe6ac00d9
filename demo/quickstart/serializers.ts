/**
 * The quickstart's hyperlinked serializers. The quickstart router is mounted under the URL
 * namespace `quickstart` (the tutorial router at the root registers `users` too), so the
 * hyperlinks name the namespaced views.
 */
import { serializers } from 'api_framework';
import { Group, User } from 'api_framework/contrib/auth';

/** A user: `url, username, email, groups` (links to the groups). */
export class UserSerializer extends serializers.HyperlinkedModelSerializer<User> {
  static Meta = serializers.meta({
    model: User,
    fields: ['url', 'username', 'email', 'groups'],
    extraKwargs: {
      url: { viewName: 'quickstart:user-detail' },
      groups: { viewName: 'quickstart:group-detail' },
    },
  });
}

/** A group: `url, name`. */
export class GroupSerializer extends serializers.HyperlinkedModelSerializer<Group> {
  static Meta = serializers.meta({
    model: Group,
    fields: ['url', 'name'],
    extraKwargs: {
      url: { viewName: 'quickstart:group-detail' },
    },
  });
}
