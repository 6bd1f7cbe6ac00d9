/**
 * A small URL conf for the generateschema specs (`--urlconf spec.schemas.schemaUrls`).
 */
import { path } from '../../lib/core/urls';
import { apiView } from '../../lib/decorators';
import { IsAdminUser, IsAuthenticated } from '../../lib/permissions';
import { Response } from '../../lib/response';
import { APIView } from '../../lib/views';

class OpenView extends APIView {
  get() {
    return new Response({});
  }
}
class MembersView extends APIView {
  override permissionClasses = [IsAuthenticated];
  get() {
    return new Response({});
  }
}
class StaffView extends APIView {
  override permissionClasses = [IsAdminUser];
  post() {
    return new Response({});
  }
}
const ping = apiView(['GET'])(async function ping() {
  return new Response({ pong: true });
});

export const urlpatterns = [
  path('open/', OpenView.asView()),
  path('members/', MembersView.asView()),
  path('staff/', StaffView.asView()),
  path('ping/', ping),
];
