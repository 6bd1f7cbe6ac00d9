/**
 * Test models for the serializer specs: one model with a column of every type, tags
 * (many-to-many), owners (the auth `User`), a model with `uniqueTogether`, one with
 * `uniqueForDate`/`Month`/`Year` columns and one with a custom getter.
 */
import 'reflect-metadata';
import { Table, Column, DataType, ForeignKey, BelongsTo, BelongsToMany } from 'sequelize-typescript';
import { BaseModel, Manager, field, relation, type ModelMeta } from '../../../lib/core/db';
import { User } from '../../../contrib/auth/models';

@Table({ tableName: 'sertest_tag', timestamps: false })
export class STag extends BaseModel {
  declare static objects: Manager<STag>;
  static override meta: ModelMeta = { appLabel: 'sertest', ordering: ['id'], verboseName: 'tag' };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(30), unique: true }))
  declare name: string;

  override toString(): string {
    return `#${this.name}`;
  }
}

@Table({ tableName: 'sertest_article', timestamps: false })
export class SArticle extends BaseModel {
  declare static objects: Manager<SArticle>;
  static override meta: ModelMeta = { appLabel: 'sertest', ordering: ['id'], verboseName: 'article' };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(100), unique: true }))
  declare title: string;

  @Column(field({ type: DataType.TEXT, blank: true, default: '' }))
  declare body: string;

  @Column(field({ type: DataType.INTEGER, default: 0, verboseName: 'number of views' }))
  declare views: number;

  @Column(field({ type: DataType.FLOAT, allowNull: true }))
  declare ratio: number | null;

  @Column(field({ type: DataType.DECIMAL(5, 2), default: '0.00' }))
  declare price: string;

  @Column(field({ type: DataType.BOOLEAN, default: false }))
  declare published: boolean;

  @Column(field({ type: DataType.DATE(3), autoNowAdd: true }))
  declare created: Date;

  @Column(field({ type: DataType.DATEONLY, allowNull: true, blank: true }))
  declare day: string | null;

  @Column(field({ type: DataType.TIME, allowNull: true, blank: true }))
  declare at: string | null;

  @Column(field({ type: DataType.UUID, allowNull: true, blank: true }))
  declare uid: string | null;

  @Column(field({ type: DataType.JSON, allowNull: true, blank: true }))
  declare extra: unknown;

  @Column(field({ type: DataType.STRING(254), blank: true, default: '', fieldType: 'EmailField' }))
  declare contact: string;

  @Column(field({ type: DataType.STRING(10), default: 'draft', choices: [['draft', 'Draft'], ['live', 'Live']] }))
  declare status: string;

  @ForeignKey(() => User)
  @Column(field({ type: DataType.INTEGER, allowNull: true }))
  declare owner_id: number | null;

  @BelongsTo(() => User, relation({ foreignKey: 'owner_id', relatedName: 'sarticles', onDelete: 'CASCADE' }))
  declare owner?: User | null;

  @BelongsToMany(() => STag, { through: () => SArticleTag, foreignKey: 'article_id', otherKey: 'tag_id', ...({ blank: true, relatedName: 'articles' } as object) })
  declare tags?: STag[];

  /** A model method usable as a read-only field. */
  get shout(): string {
    return `${this.title}!`;
  }

  override toString(): string {
    return this.title;
  }
}

@Table({ tableName: 'sertest_article_tags', timestamps: false })
export class SArticleTag extends BaseModel {
  static override meta: ModelMeta = { appLabel: 'sertest' };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @ForeignKey(() => SArticle)
  @Column(field({ type: DataType.INTEGER }))
  declare article_id: number;

  @ForeignKey(() => STag)
  @Column(field({ type: DataType.INTEGER }))
  declare tag_id: number;
}

@Table({ tableName: 'sertest_slot', timestamps: false })
export class SSlot extends BaseModel {
  declare static objects: Manager<SSlot>;
  static override meta: ModelMeta = { appLabel: 'sertest', ordering: ['id'], uniqueTogether: [['room', 'number']] };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(20) }))
  declare room: string;

  @Column(field({ type: DataType.INTEGER }))
  declare number: number;

  @Column(field({ type: DataType.DATEONLY, allowNull: true }))
  declare day: string | null;
}

/** Posts whose slug, title and code are unique per day, month and year of a date field. */
@Table({ tableName: 'sertest_post', timestamps: false })
export class SPost extends BaseModel {
  declare static objects: Manager<SPost>;
  static override meta: ModelMeta = { appLabel: 'sertest', ordering: ['id'], verboseName: 'post' };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(50), uniqueForDate: 'pub_date' }))
  declare slug: string;

  @Column(field({ type: DataType.STRING(50), uniqueForMonth: 'pub_date' }))
  declare title: string;

  @Column(field({ type: DataType.STRING(20), uniqueForYear: 'published' }))
  declare code: string;

  @Column(field({ type: DataType.DATEONLY }))
  declare pub_date: string;

  @Column(field({ type: DataType.DATE, autoNowAdd: true }))
  declare published: Date;
}

/** A model whose `name` is read through a custom getter (upper case). */
@Table({ tableName: 'sertest_label', timestamps: false })
export class SLabel extends BaseModel {
  declare static objects: Manager<SLabel>;
  static override meta: ModelMeta = { appLabel: 'sertest', ordering: ['id'] };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({
    type: DataType.STRING(30),
    get(this: SLabel): string {
      return String(this.getDataValue('name')).toUpperCase();
    },
  }))
  declare name: string;
}

/** Every model of this file, parents first (for `useTestDatabase({ models })`). */
export const serializerModels = [STag, SArticle, SArticleTag, SSlot, SPost, SLabel];
