/** Test models of the bad-input specs: rows with a column of each type the filters convert. */
import 'reflect-metadata';
import { Table, Column, DataType, ForeignKey, BelongsTo } from 'sequelize-typescript';
import { BaseModel, Manager, field, relation, type ModelMeta } from '../../lib/core/db';

/** An owner of rows: reached through `row.owner`, and back through `owner.rows`. */
@Table({ tableName: 'badinput_owner' })
export class BadOwner extends BaseModel {
  declare static objects: Manager<BadOwner>;
  static override meta: ModelMeta = { appLabel: 'badinput', ordering: ['id'] };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(50) }))
  declare name: string;
}

/** One column per filter conversion: integer, decimal, boolean, date, datetime, grouped choices. */
@Table({ tableName: 'badinput_row' })
export class BadRow extends BaseModel {
  declare static objects: Manager<BadRow>;
  static override meta: ModelMeta = { appLabel: 'badinput', ordering: ['id'] };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(50) }))
  declare title: string;

  @Column(field({ type: DataType.INTEGER, default: 0 }))
  declare n: number;

  @Column(field({ type: DataType.DECIMAL(6, 2), default: '0' }))
  declare price: string;

  @Column(field({ type: DataType.BOOLEAN, default: false }))
  declare flag: boolean;

  @Column(field({ type: DataType.DATEONLY }))
  declare day: string;

  @Column(field({ type: DataType.DATE }))
  declare at: Date;

  @Column(field({
    type: DataType.STRING(10),
    default: 'a',
    choices: [['Letters', [['a', 'A'], ['b', 'B']]], ['z', 'Zed']],
  }))
  declare kind: string;

  @ForeignKey(() => BadOwner)
  @Column(field({ type: DataType.INTEGER, allowNull: true }))
  declare owner_id: number | null;

  @BelongsTo(() => BadOwner, relation({ foreignKey: 'owner_id', relatedName: 'rows', onDelete: 'CASCADE' }))
  declare owner?: BadOwner | null;
}
