// Type-level spec of the views (issue 15 item 1): what must compile, with which types, and the
// mistakes that must not compile. Compiled by `npm run typecheck`, never run.
import type { Model } from 'sequelize-typescript';
import type { QuerySet } from '../../lib/core/db/queryset';
import { apiView, type ApiViewOptions } from '../../lib/decorators';
import { FieldFilterBackend, OrderingFilter, SearchFilter } from '../../lib/filters';
import {
  CreateAPIView, DestroyAPIView, GenericAPIView, ListAPIView, ListCreateAPIView, RetrieveAPIView, RetrieveDestroyAPIView,
  RetrieveUpdateAPIView, RetrieveUpdateDestroyAPIView, UpdateAPIView, type GenericSerializer,
} from '../../lib/generics';
import { CreateModelMixin, ListModelMixin } from '../../lib/mixins';
import { PageNumberPagination } from '../../lib/pagination';
import { IsAuthenticated } from '../../lib/permissions';
import type { Request } from '../../lib/request';
import { Response } from '../../lib/response';
import { meta, ModelSerializer } from '../../lib/serializers';
import { API_VIEW_POLICIES, APIView, type ApiViewPolicy, type ViewOptions } from '../../lib/views';
import { GenericViewSet, ModelViewSet, ReadOnlyModelViewSet } from '../../lib/viewsets';
import { GNote, GOwner } from '../models/generics/models';
import { assertTrue, expectExactType, expectType, type Equal } from './expectType';

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

// ---- Generic views take the model type (and the serializer type) -------------------------

class NoteModelSerializer extends ModelSerializer<GNote> {
  static Meta = meta({ model: GNote, fields: ['id', 'title', 'language', 'rank'] });
}

// The generics module's own doc example.
class SnippetList extends ListCreateAPIView<GNote> {
  override queryset = GNote.objects.all();
  override serializerClass = NoteModelSerializer;
}
void SnippetList;

class NoteDetail extends RetrieveUpdateDestroyAPIView<GNote, NoteModelSerializer> {
  override queryset = GNote.objects.all();
  override serializerClass = NoteModelSerializer;
  override lookupField = 'id';
  override lookupUrlKwarg = 'note';

  /** What the typed members resolve to. */
  async typedMembers(request: Request): Promise<void> {
    const note = await this.getObject();
    expectExactType<GNote>()(note);
    expectType<string>(note.title);
    expectExactType<QuerySet<GNote>>()(this.getQueryset());
    expectExactType<QuerySet<GNote>>()(await this.filterQueryset(this.getQueryset()));
    // The view's queryset is the model's typed queryset: field names are checked.
    this.getQueryset().filter({ language: 'python', rank__gte: 2 }).orderBy('-rank');
    // @ts-expect-error a misspelt field name in the view's queryset
    this.getQueryset().filter({ langauge: 'python' });
    expectExactType<NoteModelSerializer>()(this.getSerializer(note, { data: request.data, partial: true }));
    expectExactType<NoteModelSerializer>()(this.getSerializer({ data: request.data }));
    expectExactType<NoteModelSerializer>()(this.getSerializer(note));
    const page = await this.paginateQueryset(this.getQueryset());
    if (page !== null) {
      expectExactType<GNote[]>()(page);
      expectExactType<GenericSerializer>()(this.getSerializer(page, { many: true }));
    }
    expectExactType<GenericSerializer>()(this.getSerializer(await this.getQueryset().fetch(), { many: true }));
    // @ts-expect-error a list needs `many: true`
    this.getSerializer(await this.getQueryset().fetch());
    // @ts-expect-error an instance of another model
    this.getSerializer(new GOwner(), { data: request.data });
  }

  override async performUpdate(serializer: NoteModelSerializer): Promise<void> {
    expectExactType<GNote>()(await serializer.save());
  }

  override async performDestroy(instance: GNote): Promise<void> {
    expectType<string>(instance.title);
    await instance.destroy();
  }
}
void NoteDetail;

class WrongHooks extends RetrieveUpdateDestroyAPIView<GNote, NoteModelSerializer> {
  // @ts-expect-error performDestroy receives the view's model, not another one
  override async performDestroy(instance: GOwner): Promise<void> {
    void instance;
  }

  // @ts-expect-error performUpdate receives the view's serializer type
  override async performUpdate(serializer: GNote): Promise<void> {
    void serializer;
  }
}
void WrongHooks;

class WrongQueryset extends ListAPIView<GNote> {
  // @ts-expect-error the queryset of another model
  override queryset = GOwner.objects.all();
}
void WrongQueryset;

// View sets, and the view's model for every concrete class.
class NoteViewSet extends ModelViewSet<GNote, NoteModelSerializer> {
  override queryset = GNote.objects.all();
  override serializerClass = NoteModelSerializer;
  override lookupValueRegex = '[0-9]+';

  /** An extra action: no cast after getObject(). */
  async rank(): Promise<Response> {
    const note = await this.getObject();
    return new Response({ rank: note.rank });
  }

  override async performCreate(serializer: NoteModelSerializer): Promise<void> {
    const note = await serializer.save({ owner_id: this.request.user?.pk ?? null });
    expectExactType<GNote>()(note);
  }
}
expectExactType<Promise<GNote>>()(new NoteViewSet().getObject());
expectExactType<Promise<GNote>>()(new (class extends ReadOnlyModelViewSet<GNote> {})().getObject());
expectExactType<Promise<GNote>>()(new (class extends GenericViewSet<GNote> {})().getObject());
expectExactType<QuerySet<GNote>>()(new (class extends GenericAPIView<GNote> {})().getQueryset());
expectExactType<Promise<GNote>>()(new (class extends CreateAPIView<GNote> {})().getObject());
expectExactType<Promise<GNote>>()(new (class extends RetrieveAPIView<GNote> {})().getObject());
expectExactType<Promise<GNote>>()(new (class extends UpdateAPIView<GNote> {})().getObject());
expectExactType<Promise<GNote>>()(new (class extends DestroyAPIView<GNote> {})().getObject());
expectExactType<Promise<GNote>>()(new (class extends RetrieveUpdateAPIView<GNote> {})().getObject());
expectExactType<Promise<GNote>>()(new (class extends RetrieveDestroyAPIView<GNote> {})().getObject());
expectExactType<(serializer: NoteModelSerializer) => Promise<void>>()(new (class extends CreateAPIView<GNote, NoteModelSerializer> {})().performCreate);
expectExactType<(instance: GNote) => Promise<void>>()(new (class extends DestroyAPIView<GNote> {})().performDestroy);

// The mixins compose over a typed GenericAPIView (one mixin call per constant).
const CreateNoteBase = CreateModelMixin(GenericAPIView);
class ComposedNoteView extends ListModelMixin(CreateNoteBase)<GNote> {
  override queryset = GNote.objects.all();
}
expectExactType<Promise<GNote>>()(new ComposedNoteView().getObject());
expectType<(request: Request) => Promise<Response>>(new ComposedNoteView().list);

// Untyped views keep compiling: they work on `Model`, and hooks may narrow their parameter.
class UntypedViewSet extends ModelViewSet {
  override queryset = GNote.objects.all();
  override serializerClass = NoteModelSerializer;

  override async performDestroy(instance: GNote): Promise<void> {
    await instance.destroy();
  }
}
expectExactType<Promise<Model>>()(new UntypedViewSet().getObject());

// ---- Filtering and pagination attributes are declared where they are used ----------------

class SearchableNotes extends ListAPIView<GNote> {
  override queryset = GNote.objects.all();
  override serializerClass = NoteModelSerializer;
  override filterBackends = [SearchFilter, OrderingFilter, FieldFilterBackend];
  override searchFields = ['title', '=language'];
  override orderingFields = ['rank', 'title'];
  override ordering = ['-rank'];
  override filtersetFields = ['language'];
  override paginationClass = PageNumberPagination;
}
SearchableNotes.asView({ searchFields: ['title'], ordering: ['id'], lookupField: 'id' });
ListAPIView.asView({ queryset: GNote.objects.all(), serializerClass: NoteModelSerializer, ordering: 'id', paginationClass: null });
// @ts-expect-error a misspelt filter attribute as an initkwarg
SearchableNotes.asView({ searchFeilds: ['title'] });
// @ts-expect-error a filter attribute of the wrong type
SearchableNotes.asView({ ordering: 1 });
// @ts-expect-error orderingFields is a list or '__all__'
SearchableNotes.asView({ orderingFields: 'title' });
const listOptions: ViewOptions<ListAPIView<GNote>> = { searchFields: ['title'], lookupUrlKwarg: 'note' };
void listOptions;
// @ts-expect-error an excess (misspelt) property in view options
const misspeltListOptions: ViewOptions<ListAPIView<GNote>> = { serachFields: ['title'] };
void misspeltListOptions;
NoteViewSet.asView({ get: 'list' }, { searchFields: ['title'], lookupValueRegex: '[0-9]+', basename: 'note' });
// @ts-expect-error a misspelt attribute in a view set's initkwargs
NoteViewSet.asView({ get: 'list' }, { serachFields: ['title'] });

class MisspeltSearchView extends ListAPIView<GNote> {
  // @ts-expect-error `override` on a misspelt attribute: no such member on the base
  override searchFeilds = ['title'];
  // @ts-expect-error `override` on a misspelt attribute: no such member on the base
  override paginationClas = PageNumberPagination;
  // @ts-expect-error `override` on a misspelt attribute: no such member on the base
  override lookupFeild = 'id';
}
void MisspeltSearchView;
