/** A review of a book of the `books` test app. */
import 'reflect-metadata';
import { Table, Column, DataType, ForeignKey, BelongsTo } from 'sequelize-typescript';
import { BaseModel, field, relation, type ModelMeta } from '../../../../lib/core/db';
import { BkBook } from '../books/models';

@Table({ tableName: 'reviews_review' })
export class BkReview extends BaseModel {
  static override meta: ModelMeta = { appLabel: 'reviews' };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @ForeignKey(() => BkBook)
  @Column(field({ type: DataType.INTEGER }))
  declare book_id: number;

  @BelongsTo(() => BkBook, relation({ foreignKey: 'book_id', onDelete: 'CASCADE' }))
  declare book?: BkBook;

  @Column(field({ type: DataType.SMALLINT, default: 3 }))
  declare stars: number;
}
