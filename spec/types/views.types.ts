// Type-level spec of the views (issue 15 item 1): what must compile, with which types, and the
// mistakes that must not compile. Compiled by `npm run typecheck`, never run.
import { apiView, type ApiViewOptions } from '../../lib/decorators';
import { IsAuthenticated } from '../../lib/permissions';
import { Response } from '../../lib/response';
import { API_VIEW_POLICIES, APIView, type ApiViewPolicy, type ViewOptions } from '../../lib/views';
import { assertTrue, expectType, type Equal } from './expectType';

// ---- APIView: the one list of policies ----------------------------------------------------

// `API_VIEW_POLICIES` names exactly the policy members `APIView` declares.
assertTrue<Equal<ApiViewPolicy, typeof API_VIEW_POLICIES[number]>>();
type Declared<K extends keyof APIView> = K;
expectType<readonly Declared<ApiViewPolicy>[]>(API_VIEW_POLICIES);

// `ApiViewOptions` is derived from `APIView`: each policy typed as the view declares it.
assertTrue<Equal<Required<ApiViewOptions>['permissionClasses'], NonNullable<APIView['permissionClasses']>>>();
assertTrue<Equal<Required<ApiViewOptions>['metadataClass'], NonNullable<APIView['metadataClass']> | null>>();
apiView(['GET'], { permissionClasses: [IsAuthenticated], description: 'A function view.' })(async () => new Response(null));
// @ts-expect-error a misspelt policy in apiView() options
apiView(['GET'], { permisionClasses: [IsAuthenticated] });
// @ts-expect-error a policy of the wrong type
apiView(['GET'], { permissionClasses: IsAuthenticated });

// ---- APIView: asView() initkwargs are typed by the class ----------------------------------

class ScopedView extends APIView {
  override permissionClasses = [IsAuthenticated];
  override throttleScope = 'burst';
  /** A view attribute of its own. */
  greeting = 'hello';

  get(): Response {
    return new Response({ greeting: this.greeting });
  }
}
ScopedView.asView({ greeting: 'hi', permissionClasses: [], throttleScope: 'other', description: 'Greets.' });
// @ts-expect-error a misspelt attribute
ScopedView.asView({ greting: 'hi' });
// @ts-expect-error an attribute of the wrong type
ScopedView.asView({ greeting: 1 });
// @ts-expect-error a handler method is no initkwarg
ScopedView.asView({ get: () => new Response(null) });
const scopedOptions: ViewOptions<ScopedView> = { throttleScope: 'burst' };
void scopedOptions;
// @ts-expect-error an excess property in view options
const misspeltOptions: ViewOptions<ScopedView> = { throtleScope: 'burst' };
void misspeltOptions;

class MisspeltPolicyView extends APIView {
  // @ts-expect-error `override` on a member the base does not declare: the typo fails
  override permisionClasses = [IsAuthenticated];
}
void MisspeltPolicyView;
