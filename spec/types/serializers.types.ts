// Typed serializers (issue 15, item 2): the representation and validated data types inferred
// from declared fields and `Meta`, `ModelSerializer<M>`'s instance type, typos in `Meta` failing
// to compile, and `serializers.ValidationError`. Compiled by `npm run typecheck`, never run.
import { fields, relations, serializers } from 'api_framework';
import { BaseModel, type Manager } from 'api_framework/db';
import { GroupSerializer } from '../../demo/quickstart/serializers';
import { SnippetSerializer, UserSerializer } from '../../demo/snippets/serializers';
import { assertTrue, type Equal, expectExactType, expectType } from './expectType';

class Author extends BaseModel {
  declare static objects: Manager<Author>;
  declare id: number;
  declare name: string;
}

class Tag extends BaseModel {
  declare static objects: Manager<Tag>;
  declare id: number;
  declare label: string;
}

class Book extends BaseModel {
  declare static objects: Manager<Book>;
  declare id: number;
  declare title: string;
  declare published: Date;
  declare summary: string | null;
  declare author_id: number;
  declare author?: Author;
  declare tags?: Tag[];
}

// -- Declared fields: each field class carries its value type; options refine it -------------

class AddressSerializer extends serializers.Serializer {
  static fields = {
    street: new fields.CharField(),
    zip: new fields.CharField({ required: false }),
  };
}

export class FeatureSerializer extends serializers.Serializer {
  static fields = {
    name: new fields.CharField({ maxLength: 5 }),
    count: new fields.IntegerField({ minValue: 1 }),
    ratio: new fields.FloatField({ allowNull: true }),
    price: new fields.DecimalField({ maxDigits: 5, decimalPlaces: 2 }),
    active: new fields.BooleanField({ default: true }),
    when: new fields.DateTimeField({ required: false }),
    day: new fields.DateField(),
    choice: new fields.ChoiceField({ choices: ['a', 'b'] }),
    tags: new fields.ListField({ child: new fields.CharField({ maxLength: 3 }) }),
    scores: new fields.DictField({ child: new fields.IntegerField() }),
    id: new fields.IntegerField({ readOnly: true }),
    secret: new fields.CharField({ writeOnly: true }),
    shown: new fields.ReadOnlyField(),
    address: AddressSerializer.asField({ required: false }),
    history: AddressSerializer.asField({ many: true }),
  };
}

type FeatureOut = serializers.Infer<typeof FeatureSerializer>;
type FeatureIn = serializers.InferValidated<typeof FeatureSerializer>;

// Each nested value is exactly typed.
assertTrue<Equal<FeatureOut['history'], Address[]>>();
assertTrue<Equal<FeatureIn['address'], Address | undefined>>();
assertTrue<Equal<FeatureOut['shown'], unknown>>();

// The representation: DateTimeField is text, writeOnly is absent, readOnly present,
// required: false is optional, nested serializers (and their `many` lists) are typed.
type Address = { street: string; zip?: string };

type ExpectedFeatureOut = {
  name: string;
  count: number;
  ratio: number | null;
  price: string;
  active: boolean;
  day: string;
  choice: string;
  tags: string[];
  scores: Record<string, number>;
  id: number;
  shown: unknown;
  history: Address[];
  when?: string;
  address?: Address;
};
assertTrue<Equal<FeatureOut, ExpectedFeatureOut>>();

// The validated data: DateTimeField is a Date, readOnly fields are absent, writeOnly present,
// a default or required: false makes the key optional.
type ExpectedFeatureIn = {
  name: string;
  count: number;
  ratio: number | null;
  price: string;
  day: string;
  choice: string;
  tags: string[];
  scores: Record<string, number>;
  secret: string;
  history: Address[];
  active?: boolean;
  when?: Date;
  address?: Address;
};
assertTrue<Equal<FeatureIn, ExpectedFeatureIn>>();

declare const featureIn: FeatureIn;
expectExactType<Date | undefined>()(featureIn.when);
// @ts-expect-error a key the serializer does not have
void featureIn.nmae;
// @ts-expect-error read-only fields are not in the validated data
void featureIn.id;

// -- ModelSerializer: Meta.fields checked against the model, types from the model ----------

class BookSerializer extends serializers.ModelSerializer<Book> {
  static fields = {
    author_name: new fields.ReadOnlyField({ source: 'author.name' }),
    tags: new relations.PrimaryKeyRelatedField({ many: true, queryset: Tag.objects.all() }),
  };
  static Meta = serializers.meta({
    model: Book,
    fields: ['id', 'title', 'published', 'summary', 'author', 'author_name', 'tags'],
    extraKwargs: { summary: { required: false } },
  }, this.fields);
}

assertTrue<Equal<serializers.Infer<typeof BookSerializer>, {
  id: number;
  title: string;
  published: string;
  summary: string | null;
  author: number;
  author_name: unknown;
  tags: number[];
}>>();

assertTrue<Equal<serializers.InferValidated<typeof BookSerializer>, {
  title?: string;
  published?: Date;
  summary?: string | null;
  author?: Author;
  tags: Tag[];
}>>();

// A typo in Meta.fields, exclude, readOnlyFields or extraKwargs fails to compile.
serializers.meta({
  model: Book,
  // @ts-expect-error `titel` is not an attribute of Book
  fields: ['id', 'titel'],
});
serializers.meta({
  model: Book,
  // @ts-expect-error `sumary` is not an attribute of Book
  exclude: ['sumary'],
});
serializers.meta({
  model: Book,
  fields: ['id', 'title'],
  // @ts-expect-error `titel` is not an attribute of Book
  readOnlyFields: ['titel'],
});
serializers.meta({
  model: Book,
  fields: ['id', 'title'],
  // @ts-expect-error `titel` is not an attribute of Book
  extraKwargs: { titel: { required: false } },
});
// A name that is neither a model attribute nor declared fails; declared names are allowed.
serializers.meta({
  model: Book,
  // @ts-expect-error `author_name` is declared on BookSerializer, not passed here
  fields: ['id', 'author_name'],
});
serializers.meta({ model: Book, fields: ['id', 'author_name'] }, BookSerializer.fields);
// Meta.model must be a model class.
// @ts-expect-error a plain class is not a model
serializers.meta({ model: class NotAModel {}, fields: ['id'] });

// `exclude` and '__all__' select the model's attributes.
export class BookTitleSerializer extends serializers.ModelSerializer<Book> {
  static Meta = serializers.meta({ model: Book, exclude: ['summary', 'author', 'tags', 'author_id', 'published'] });
}
assertTrue<Equal<serializers.Infer<typeof BookTitleSerializer>, { id: number; title: string }>>();

export class AuthorSerializer extends serializers.HyperlinkedModelSerializer<Author> {
  static Meta = serializers.meta({ model: Author, fields: '__all__' });
}
assertTrue<Equal<serializers.Infer<typeof AuthorSerializer>, { id: number; name: string }>>();

// HyperlinkedModelSerializer represents relations (and `url`) as URLs.
export class LinkedBookSerializer extends serializers.HyperlinkedModelSerializer<Book> {
  static Meta = serializers.meta({ model: Book, fields: ['url', 'title', 'author', 'tags'] });
}
assertTrue<Equal<serializers.Infer<typeof LinkedBookSerializer>, { url: string; title: string; author: string; tags: string[] }>>();

// -- ModelSerializer<M>: the instance type flows through save(), create(), update() ----------

class SavingBookSerializer extends serializers.ModelSerializer<Book> {
  static Meta = serializers.meta({ model: Book, fields: ['id', 'title'] });

  override async create(validatedData: serializers.ModelValidatedData<Book>): Promise<Book> {
    expectExactType<string | undefined>()(validatedData.title);
    // @ts-expect-error a key the model does not have
    void validatedData.titel;
    return super.create(validatedData);
  }

  override async update(instance: Book, validatedData: serializers.ModelValidatedData<Book>): Promise<Book> {
    expectType<number>(instance.id);
    return super.update(instance, validatedData);
  }
}

async function useSerializer(): Promise<void> {
  const serializer = new SavingBookSerializer({ data: { title: 'x' } });
  expectExactType<Book | null>()(serializer.instance);
  expectExactType<boolean>()(await serializer.isValid());
  const saved = await serializer.save();
  expectExactType<Book>()(saved);
  expectType<string>(saved.title);
  // @ts-expect-error validatedData is not a loose record any more
  void serializer.validatedData.nope;
  // An untyped ModelSerializer keeps compiling, with the loose types.
  class Loose extends serializers.ModelSerializer {
    static Meta: serializers.ModelSerializerMeta = { model: Book, fields: ['id'] };
  }
  const loose = new Loose({ data: {} });
  expectType<Record<string, unknown>>(loose.validatedData);
  assertTrue<Equal<serializers.Infer<typeof Loose>, Record<string, unknown>>>();
}
void useSerializer;

// -- serializers.ValidationError (as DRF users spell it) -------------------------------------

class TitleSerializer extends serializers.Serializer {
  static fields = { title: new fields.CharField() };

  validateTitle(value: string): string {
    if (value === 'x') throw new serializers.ValidationError('No x.');
    return value;
  }
}
void TitleSerializer;

// -- The demo's serializers are typed -----------------------------------------------------------

assertTrue<Equal<serializers.Infer<typeof SnippetSerializer>, {
  id: number;
  title: string;
  code: string;
  linenos: boolean;
  language: string;
  style: string;
  owner: unknown;
}>>();
assertTrue<Equal<serializers.InferValidated<typeof SnippetSerializer>, {
  title?: string;
  code?: string;
  linenos?: boolean;
  language?: string;
  style?: string;
}>>();
assertTrue<Equal<serializers.Infer<typeof UserSerializer>, { id: number; username: string; snippets: number[] }>>();
assertTrue<Equal<serializers.Infer<typeof GroupSerializer>, { url: string; name: string }>>();

// -- SerializerMethodField: the value its method returns -------------------------------------

export class ProfileSerializer extends serializers.Serializer {
  static fields = {
    first_name: new fields.CharField(),
    full_name: new fields.SerializerMethodField(),
    total: new fields.SerializerMethodField({ methodName: 'computeTotal' }),
  };

  getFullName(obj: { first_name: string }): string {
    return obj.first_name;
  }

  async computeTotal(): Promise<number> {
    return 1;
  }
}
assertTrue<Equal<serializers.Infer<typeof ProfileSerializer>, { first_name: string; full_name: string; total: number }>>();
assertTrue<Equal<serializers.InferValidated<typeof ProfileSerializer>, { first_name: string }>>();

// -- SerializerOf: an instance of a known class with its exact types ---------------------------

async function handle(serializer: serializers.SerializerOf<typeof ProfileSerializer>): Promise<void> {
  if (!(await serializer.isValid())) {
    expectType<unknown>(serializer.errors.first_name);
    // @ts-expect-error errors are keyed by the writable fields and non_field_errors
    void serializer.errors.full_name;
    return;
  }
  expectExactType<{ first_name: string }>()(serializer.validatedData);
  expectExactType<{ first_name: string; full_name: string; total: number }>()(await serializer.getData());
  // @ts-expect-error not a field of ProfileSerializer
  void serializer.data.last_name;
}
void handle;

// -- Field value types, for custom fields and relations ---------------------------------------

export const bySlug = new relations.SlugRelatedField({ slugField: 'label', queryset: Tag.objects.all() });
assertTrue<Equal<fields.FieldOutput<typeof bySlug>, string>>();
assertTrue<Equal<fields.FieldInput<typeof bySlug>, Tag>>();
export const nullableWhen = new fields.DateTimeField({ allowNull: true });
assertTrue<Equal<fields.FieldOutput<typeof nullableWhen>, string | null>>();
assertTrue<Equal<fields.FieldInput<typeof nullableWhen>, Date | null>>();
// A custom field states its types in `extends Field<Output, Input>`.
class ColorField extends fields.Field<string, [number, number, number]> {}
assertTrue<Equal<fields.FieldInput<ColorField>, [number, number, number]>>();
