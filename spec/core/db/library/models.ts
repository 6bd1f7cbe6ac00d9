/** Test models for the database layer's specs: authors, books, tags. */
import 'reflect-metadata';
import { Table, Column, DataType, ForeignKey, BelongsTo, BelongsToMany } from 'sequelize-typescript';
import { BaseModel, Manager, field, relation, type ModelMeta } from '../../../../lib/core/db';

/** A custom manager with a table-level helper. */
export class LibAuthorManager extends Manager<LibAuthor> {
  /** Authors whose name starts with `prefix`, case-insensitively. */
  named(prefix: string): ReturnType<Manager<LibAuthor>['filter']> {
    return this.filter({ name__istartswith: prefix });
  }
}

@Table({ tableName: 'library_author' })
export class LibAuthor extends BaseModel {
  declare static objects: LibAuthorManager;
  static override managerClass = LibAuthorManager;
  static override meta: ModelMeta = { appLabel: 'library', ordering: ['name'] };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(100), helpText: 'Full name', verboseName: 'author name' }))
  declare name: string;

  @Column(field({ type: DataType.STRING(254), blank: true, default: '', fieldType: 'EmailField' }))
  declare email: string;

  /** Reverse relations (`relatedName` of `LibBook.author` / `.editor`), declared so typed lookups may follow them. */
  declare books?: LibBook[];
  declare edited?: LibBook[];
}

@Table({ tableName: 'library_tag' })
export class LibTag extends BaseModel {
  declare static objects: Manager<LibTag>;
  static override meta: ModelMeta = { appLabel: 'library' };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(50), unique: true }))
  declare name: string;
}

@Table({ tableName: 'library_book' })
export class LibBook extends BaseModel {
  declare static objects: Manager<LibBook>;
  static override meta: ModelMeta = { appLabel: 'library', ordering: ['id'] };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(200) }))
  declare title: string;

  @Column(field({ type: DataType.DECIMAL(6, 2), allowNull: true }))
  declare price: string | null;

  @Column(field({ type: DataType.BOOLEAN, default: true }))
  declare in_print: boolean;

  @Column(field({ type: DataType.STRING(10), choices: [['hb', 'Hardback'], ['Soft', [['pb', 'Paperback'], ['eb', 'E-book']]]], default: 'hb' }))
  declare format: string;

  @Column(field({ type: DataType.DATE, autoNowAdd: true }))
  declare created: Date;

  @ForeignKey(() => LibAuthor)
  @Column(field({ type: DataType.INTEGER }))
  declare author_id: number;

  @BelongsTo(() => LibAuthor, relation({ foreignKey: 'author_id', relatedName: 'books', onDelete: 'CASCADE' }))
  declare author?: LibAuthor;

  @ForeignKey(() => LibAuthor)
  @Column(field({ type: DataType.INTEGER, allowNull: true, blank: true }))
  declare editor_id: number | null;

  @BelongsTo(() => LibAuthor, relation({ foreignKey: 'editor_id', relatedName: 'edited', onDelete: 'SET NULL' }))
  declare editor?: LibAuthor | null;

  @BelongsToMany(() => LibTag, () => LibBookTag)
  declare tags?: LibTag[];
}

@Table({ tableName: 'library_book_tags' })
export class LibBookTag extends BaseModel {
  static override meta: ModelMeta = { appLabel: 'library' };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @ForeignKey(() => LibBook)
  @Column(field({ type: DataType.INTEGER }))
  declare book_id: number;

  @ForeignKey(() => LibTag)
  @Column(field({ type: DataType.INTEGER }))
  declare tag_id: number;
}
