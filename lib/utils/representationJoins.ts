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
import { serializerColumnPaths } from './plainRead';

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

/** What a retrieve's representation reads of its object: joins, and its columns when they are all it reads. */
interface RepresentationReads {
  joins: readonly string[];
  /** The column paths, or null when the serializer may read anything of the instance. */
  columns: ReadonlyArray<readonly string[]> | null;
}

const NO_READS: RepresentationReads = Object.freeze({ joins: Object.freeze([]), columns: null });

let cache = new WeakMap<object, WeakMap<object, Map<object, RepresentationReads>>>();
onSettingChanged(() => {
  cache = new WeakMap();
});

/** The mark `joinRepresentationRelations()` leaves on a view (a symbol: no view attribute of its own). */
const MARK = Symbol('joinRepresentationRelations');
/** The mark of `loadRepresentationColumnsOnly()`: taken by the next `representationColumns()`. */
const COLUMNS_MARK = Symbol('loadRepresentationColumnsOnly');

type Markable = { [MARK]?: true; [COLUMNS_MARK]?: true };

/**
 * Mark `view` as one that will serialize the object it looks up (`retrieve()`), so that its
 * `getObject()` joins the relations the representation reads.
 */
export function joinRepresentationRelations(view: object): void {
  (view as Markable)[MARK] = true;
}

/**
 * Mark `view` (also marked by `joinRepresentationRelations()`) as one whose next looked-up
 * object goes to its serializer only, so that `getObject()` may load only the columns the
 * representation reads (`representationColumns()`).
 */
export function loadRepresentationColumnsOnly(view: object): void {
  (view as Markable)[COLUMNS_MARK] = true;
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

function computeReads(view: JoiningView, model: ModelCtor): RepresentationReads {
  let serializer: unknown;
  try {
    serializer = view.getSerializer();
  } catch {
    // A view whose serializer cannot be built without an instance: no joins (the serializer
    // loads what it reads itself, as before).
    return NO_READS;
  }
  if (!(serializer instanceof Serializer)) return NO_READS;
  // Columns only for fields of the class (the same for every instance of it; asked before
  // anything binds the instance's fields), all plain reads.
  const classFields = serializer.sharedFieldsKey() !== null;
  const joins = Object.freeze(toOnePaths(model, serializer.relationsFor(model) as Map<string, RelationTreeNode>, '', []));
  const columns = classFields ? serializerColumnPaths(serializer, model) : null;
  return Object.freeze({ joins, columns: columns && Object.freeze(columns.map((path) => Object.freeze(path))) });
}

function readsOf(view: JoiningView, model: AnyModelClass | ModelCtor): RepresentationReads {
  const serializerClass = view.getSerializerClass();
  if (typeof serializerClass !== 'function') return NO_READS;
  let byView = cache.get(view.constructor);
  if (!byView) cache.set(view.constructor, byView = new WeakMap());
  let byModel = byView.get(serializerClass);
  if (!byModel) byView.set(serializerClass, byModel = new Map());
  let reads = byModel.get(model);
  if (!reads) byModel.set(model, reads = computeReads(view, model as ModelCtor));
  return reads;
}

/**
 * The column paths the representation of the object `view` looks up in `model` reads, when
 * they are all it reads and the view was marked by `loadRepresentationColumnsOnly()` (the
 * mark is taken: asked again, the answer is null); null otherwise.
 */
export function representationColumns(view: JoiningView, model: AnyModelClass | ModelCtor): ReadonlyArray<readonly string[]> | null {
  const marks = view as Markable;
  if (marks[COLUMNS_MARK] !== true) return null;
  marks[COLUMNS_MARK] = undefined;
  if (marks[MARK] !== true) return null;
  return readsOf(view, model).columns;
}

/**
 * The `selectRelated()` paths for the object `view` looks up in `model` (empty unless the view
 * was marked by `joinRepresentationRelations()`).
 */
export function representationJoins(view: JoiningView, model: AnyModelClass | ModelCtor): readonly string[] {
  if ((view as Markable)[MARK] !== true) return [];
  return readsOf(view, model).joins;
}
