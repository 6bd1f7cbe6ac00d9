/**
 * The quickstart's viewsets: users and groups, viewed and edited by authenticated users.
 */
import { authentication, pagination, permissions, viewsets } from 'api_framework';
import { Group, User } from 'api_framework/contrib/auth';
import { GroupSerializer, UserSerializer } from './serializers';

/** Ten items per page, `?page=`. */
export class QuickstartPagination extends pagination.PageNumberPagination {
  override pageSize = 10;
}

/**
 * API endpoint that allows users to be viewed or edited.
 */
export class UserViewSet extends viewsets.ModelViewSet<User> {
  static override description = 'API endpoint that allows users to be viewed or edited.';

  override queryset = User.objects.all().orderBy('-date_joined');
  override serializerClass = UserSerializer;
  override authenticationClasses = [authentication.BasicAuthentication, authentication.SessionAuthentication];
  override permissionClasses = [permissions.IsAuthenticated];
  override paginationClass = QuickstartPagination;
}

/**
 * API endpoint that allows groups to be viewed or edited.
 */
export class GroupViewSet extends viewsets.ModelViewSet<Group> {
  static override description = 'API endpoint that allows groups to be viewed or edited.';

  override queryset = Group.objects.all().orderBy('name');
  override serializerClass = GroupSerializer;
  override authenticationClasses = [authentication.BasicAuthentication, authentication.SessionAuthentication];
  override permissionClasses = [permissions.IsAuthenticated];
  override paginationClass = QuickstartPagination;
}
