/** Test models of the migration specs (`makemigrations` reads them). */
import 'reflect-metadata';
import { Table, Column, DataType, ForeignKey, BelongsTo, BelongsToMany } from 'sequelize-typescript';
import { BaseModel, field, relation, type ModelMeta } from '../../../../lib/core/db';

@Table({ tableName: 'books_author' })
export class BkAuthor extends BaseModel {
  static override meta: ModelMeta = { appLabel: 'books', ordering: ['name'] };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(100) }))
  declare name: string;
}

@Table({ tableName: 'books_tag' })
export class BkTag extends BaseModel {
  static override meta: ModelMeta = { appLabel: 'books' };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(50), unique: true }))
  declare name: string;
}

/** Join rows of `BkBook.tags` (auto-created: not a model of its own in migrations). */
@Table({ tableName: 'books_book_tags' })
export class BkBookTag extends BaseModel {
  static override meta: ModelMeta = { appLabel: 'books' };
  static autoCreated = true;

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @ForeignKey(() => BkBook)
  @Column(field({ type: DataType.INTEGER }))
  declare book_id: number;

  @ForeignKey(() => BkTag)
  @Column(field({ type: DataType.INTEGER }))
  declare tag_id: number;
}

@Table({ tableName: 'books_book' })
export class BkBook extends BaseModel {
  static override meta: ModelMeta = {
    appLabel: 'books',
    ordering: ['title'],
    uniqueTogether: [['title', 'author_id']],
    indexes: [{ name: 'books_book_title_idx', fields: ['title'] }],
  };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(200) }))
  declare title: string;

  @Column(field({ type: DataType.STRING(13), blank: true, default: '' }))
  declare isbn: string;

  @Column(field({ type: DataType.INTEGER, allowNull: true, dbIndex: true }))
  declare pages: number | null;

  @Column(field({ type: DataType.DECIMAL(6, 2), allowNull: true }))
  declare price: string | null;

  @Column(field({ type: DataType.STRING(10), choices: [['hard', 'Hardcover'], ['soft', 'Paperback']], default: 'soft' }))
  declare format: string;

  @Column(field({ type: DataType.DATE(6), autoNowAdd: true }))
  declare created: Date;

  @ForeignKey(() => BkAuthor)
  @Column(field({ type: DataType.INTEGER }))
  declare author_id: number;

  @BelongsTo(() => BkAuthor, relation({ foreignKey: 'author_id', relatedName: 'books', onDelete: 'CASCADE' }))
  declare author?: BkAuthor;

  @BelongsToMany(() => BkTag, { through: () => BkBookTag, foreignKey: 'book_id', otherKey: 'tag_id' })
  declare tags?: BkTag[];
}
