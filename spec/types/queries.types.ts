/**
 * Typed queries (issue 15, item 3): `filter()`, `exclude()`, `get()`, `create()`, `update()`,
 * `orderBy()`, `getOrCreate()`, `values()`, `valuesList()` on `Model.objects` and its QuerySets
 * accept only the model's field names and lookups, with value types checked; dynamic code
 * goes through `Q` / `orderByNames()`. Also: `relation()` on `@BelongsToMany`, and
 * `adminSite.register()` of a model with `meta.ordering`.
 */
import 'reflect-metadata';
import type { Model } from 'sequelize-typescript';
import {
  BaseModel,
  BelongsTo,
  BelongsToMany,
  Column,
  DataType,
  ForeignKey,
  Q,
  Table,
  field,
  relation,
  type FieldLookups,
  type Manager,
  type ModelMeta,
  type OrderingTerm,
  type QuerySet,
} from 'api_framework/db';
import { AdminSite } from 'api_framework/contrib/admin';
import { expectExactType, expectType } from './expectType';

@Table({ tableName: 'typed_author' })
class Author extends BaseModel {
  declare static objects: Manager<Author>;

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(100) }))
  declare name: string;

  /** A reverse relation, declared so lookups may follow it. */
  declare books?: Book[];
}

@Table({ tableName: 'typed_tag' })
class Tag extends BaseModel {
  declare static objects: Manager<Tag>;

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(50) }))
  declare label: string;
}

@Table({ tableName: 'typed_book_tags', timestamps: false })
class BookTag extends BaseModel {
  @ForeignKey(() => Book)
  @Column(field({ type: DataType.INTEGER }))
  declare book_id: number;

  @ForeignKey(() => Tag)
  @Column(field({ type: DataType.INTEGER }))
  declare tag_id: number;
}

@Table({ tableName: 'typed_book' })
class Book extends BaseModel {
  declare static objects: Manager<Book>;
  static override meta = { appLabel: 'typed', ordering: ['-published', 'title'] } as const satisfies ModelMeta;

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(200) }))
  declare title: string;

  @Column(field({ type: DataType.DECIMAL(8, 2), allowNull: true }))
  declare price: string | null;

  @Column(field({ type: DataType.DATE }))
  declare published: Date;

  @Column(field({ type: DataType.BOOLEAN, default: true }))
  declare in_print: boolean;

  @ForeignKey(() => Author)
  @Column(field({ type: DataType.INTEGER }))
  declare author_id: number;

  @BelongsTo(() => Author, relation({ foreignKey: 'author_id', relatedName: 'books', onDelete: 'CASCADE' }))
  declare author?: Author;

  // relation() on @BelongsToMany: `through` as a model getter plus relatedName and Django's extras.
  @BelongsToMany(() => Tag, relation({ through: () => BookTag, foreignKey: 'book_id', otherKey: 'tag_id', relatedName: 'books', blank: true }))
  declare tags?: Tag[];
}

// relation() on @BelongsToMany with the positional `through` form still compiles too.
@Table({ tableName: 'typed_shelf' })
class Shelf extends BaseModel {
  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @BelongsToMany(() => Book, () => BookTag)
  declare books?: Book[];
}
void Shelf;

declare const author: Author;
declare const someField: string;
declare const someTerms: string[];

export async function typedQueries(): Promise<void> {
  // ---------------------------------------------------------------- what compiles
  Book.objects.filter({ title: 'Dune', title__icontains: 'dun', id__in: [1, 2], author__name: 'Herbert', author_id: 1, pk: 3 });
  Book.objects.filter({ author, author__in: [author, 2], author__isnull: false, price__isnull: true, price: null });
  Book.objects.filter({ published__gte: new Date(), published__lt: '2020-01-01', id__range: [1, 10], pk__in: Book.objects.filter({ in_print: true }) });
  Book.objects.filter({ tags__label: 'sf', tags__label__istartswith: 's', author__books__title: 'Dune' });
  // @ts-expect-error: relations are followed two levels deep, not three
  Book.objects.filter({ author__books__tags__label: 'sf' });
  Author.objects.filter({ books__title__icontains: 'dune', books__isnull: false });
  Book.objects.exclude({ title__startswith: 'A' }, Q.or({ id: 1 }, { id: 2 }));
  Book.objects.all().orderBy('-title', 'author__name', 'pk', '-author', 'published');
  Book.objects.filter({ in_print: true }).exclude({ author__name__iexact: 'x' }).orderBy('-published').slice(0, 10);
  expectExactType<Book>()(await Book.objects.get({ pk: 1 }));
  expectExactType<Book>()(await Book.objects.filter({ title__icontains: 'x' }).get({ id: 2 }));
  expectExactType<Book>()(await Book.objects.create({ title: 'Dune', author_id: 1, published: new Date(), price: '9.99' }));
  expectExactType<number>()(await Book.objects.filter({ author__name: 'x' }).update({ in_print: false, author: author }));
  expectExactType<[Book, boolean]>()(await Book.objects.getOrCreate({ title: 'Dune' }, { author_id: 1 }));
  await Book.objects.bulkCreate([{ title: 'a', author_id: 1 }, { title: 'b', author_id: 1 }]);
  await Book.objects.values('id', 'title', 'pk');
  await Book.objects.valuesList('title', { flat: true });
  await Book.objects.create({ title: 'x', author_id: author.pk });
  expectType<number | null>(author.pk);

  // Lookups built from strings at run time: a Q (names checked when the query runs, FieldError).
  Book.objects.filter(new Q({ [`${someField}__icontains`]: 'q' }));
  Book.objects.get(new Q({ [someField]: '1' }));
  Book.objects.orderByNames(someTerms);
  // Anything else with run-time names: the untyped view every typed QuerySet has (an upcast).
  const untyped: QuerySet<BaseModel> = Book.objects.filter({ in_print: true });
  await untyped.values(someField);
  expectType<Promise<unknown[]>>(untyped.valuesList(someField, { flat: true }));

  // Code generic over models: a QuerySet of an unknown model takes any lookup, and every typed QuerySet is one.
  const generic: QuerySet<Model> = Book.objects.filter({ title: 'x' });
  generic.filter({ whatever__icontains: 'x' }).orderBy('-anything');
  const base: QuerySet<BaseModel> = Author.objects.all();
  void base;
  expectType<FieldLookups<Book>>({ title__in: ['a', 'b'] });
  expectType<OrderingTerm<Book>>('-author__name');

  // ---------------------------------------------------------------- what does not
  // @ts-expect-error: a typo in a field name (`author_id`)
  Book.objects.filter({ autor_id: 1 });
  // @ts-expect-error: a typo in an ordering field (`price`)
  Book.objects.orderBy('-pricee');
  // @ts-expect-error: a typo in create() (`title`)
  await Book.objects.create({ titel: 'Dune' });
  // @ts-expect-error: unknown lookup
  Book.objects.filter({ title__icontain: 'x' });
  // @ts-expect-error: unknown field across a relation
  Book.objects.filter({ author__nam: 'x' });
  // @ts-expect-error: exclude() checks names too
  Book.objects.exclude({ titel: 'x' });
  // @ts-expect-error: get() checks names too
  await Book.objects.get({ idd: 1 });
  // @ts-expect-error: update() checks names too
  await Book.objects.update({ titel: 'x' });
  // @ts-expect-error: getOrCreate() checks the lookups
  await Book.objects.getOrCreate({ titel: 'x' });
  // @ts-expect-error: getOrCreate() checks the defaults
  await Book.objects.getOrCreate({ title: 'x' }, { autor_id: 1 });
  // @ts-expect-error: values() takes the model's own fields
  await Book.objects.values('titel');
  // @ts-expect-error: valuesList() too
  await Book.objects.valuesList('titel', { flat: true });
  // @ts-expect-error: `__in` takes a list
  Book.objects.filter({ id__in: 1 });
  // @ts-expect-error: `__isnull` takes a boolean
  Book.objects.filter({ price__isnull: 'yes' });
  // @ts-expect-error: equality takes the attribute's type
  Book.objects.filter({ title: 5 });
  // @ts-expect-error: a text lookup takes text
  Book.objects.filter({ id__icontains: 5 });
  // @ts-expect-error: create() values have the attribute's type
  await Book.objects.create({ in_print: 'yes' });
  // @ts-expect-error: orderBy() follows to-one relations only (not `tags`)
  Book.objects.orderBy('tags__label');
  // @ts-expect-error: a chained QuerySet keeps the checks
  Book.objects.all().filter({ in_print: true }).orderBy('titel');
}

// ---------------------------------------------------------------- adminSite.register and meta.ordering

/** A model declared as the README's guide does (`meta: ModelMeta` with `ordering`). */
@Table({ tableName: 'typed_readme_book' })
class ReadmeBook extends BaseModel {
  declare static objects: Manager<ReadmeBook>;
  static override meta: ModelMeta = { appLabel: 'books', ordering: ['id'] };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(200), unique: true }))
  declare title: string;
}

export function registerAdmins(site: AdminSite): void {
  site.register(ReadmeBook, { listDisplay: ['title'], searchFields: ['title'] });
  // A readonly tuple (`as const`) as meta.ordering, and a model with relations.
  site.register(Book, { listDisplay: ['title', 'author'], listFilter: ['in_print'], searchFields: ['title', 'author__name'] });
}
