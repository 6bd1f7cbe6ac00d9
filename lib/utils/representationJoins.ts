/**
 * Joins for a retrieve: the to-one relations a view's serializer reads from the object (dotted
 * sources such as `owner.username`, nested serializers on a foreign key, and so on down), as
 * `selectRelated()` paths (`owner`, `owner__profile`). `RetrieveModelMixin.retrieve()` marks
 * the view, and `GenericAPIView.getObject()` then joins those relations into the object's own
 * SELECT, so the object and what its representation reads come in one statement instead of
 * one more query per relation (the serializer's `loadRelations()` finds them loaded).
 *
 * General for any view, serializer and model: only `belongsTo` relations are joined (a LEFT
 * JOIN on the target's key never repeats the row); to-many relations stay with the
 * serializer's prefetching. The paths are worked out once per (view class, serializer class,
 * model) from a serializer the view builds (`getSerializer()`), and again after any setting
 * changes (the serializer's fields may depend on settings).
 */
import type { ModelCtor } from 'sequelize-typescript';
import { getFieldInfo } from '../core/db';
import type { AnyModelClass } from '../core/db/fieldInfo';
import { onSettingChanged } from '../core/conf';
import { Serializer } from '../serializers';

/** What `Serializer.relationsFor()` answers: relation name -> (target model, deeper relations). */
interface RelationTreeNode {
  model: ModelCtor;
  children: Map<string, RelationTreeNode>;
}

/** The view as this module needs it (a `GenericAPIView`). */
export interface JoiningView {
  getSerializer(): unknown;
  getSerializerClass(): unknown;
}

let cache = new WeakMap<object, WeakMap<object, Map<object, readonly string[]>>>();
onSettingChanged(() => {
  cache = new WeakMap();
});

/** The mark `joinRepresentationRelations()` leaves on a view (a symbol: no view attribute of its own). */
const MARK = Symbol('joinRepresentationRelations');

type Markable = { [MARK]?: true };

/**
 * Mark `view` as one that will serialize the object it looks up (`retrieve()`), so that its
 * `getObject()` joins the relations the representation reads.
 */
export function joinRepresentationRelations(view: object): void {
  (view as Markable)[MARK] = true;
}

/** The `belongsTo` paths of `tree`, depth first (`owner`, `owner__profile`). */
function toOnePaths(model: ModelCtor, tree: Map<string, RelationTreeNode>, prefix: string, into: string[]): string[] {
  const info = getFieldInfo(model);
  for (const [name, node] of tree) {
    const relation = info.getRelation(name);
    if (!relation || relation.name !== name || relation.kind !== 'belongsTo') continue;
    const path = prefix ? `${prefix}__${name}` : name;
    into.push(path);
    toOnePaths(relation.target, node.children, path, into);
  }
  return into;
}

function computePaths(view: JoiningView, model: ModelCtor): readonly string[] {
  let serializer: unknown;
  try {
    serializer = view.getSerializer();
  } catch {
    // A view whose serializer cannot be built without an instance: no joins (the serializer
    // loads what it reads itself, as before).
    return [];
  }
  if (!(serializer instanceof Serializer)) return [];
  return Object.freeze(toOnePaths(model, serializer.relationsFor(model) as Map<string, RelationTreeNode>, '', []));
}

/**
 * The `selectRelated()` paths for the object `view` looks up in `model` (empty unless the view
 * was marked by `joinRepresentationRelations()`).
 */
export function representationJoins(view: JoiningView, model: AnyModelClass | ModelCtor): readonly string[] {
  if ((view as Markable)[MARK] !== true) return [];
  const serializerClass = view.getSerializerClass();
  if (typeof serializerClass !== 'function') return [];
  let byView = cache.get(view.constructor);
  if (!byView) cache.set(view.constructor, byView = new WeakMap());
  let byModel = byView.get(serializerClass);
  if (!byModel) byView.set(serializerClass, byModel = new Map());
  let paths = byModel.get(model);
  if (!paths) byModel.set(model, paths = computePaths(view, model as ModelCtor));
  return paths;
}
