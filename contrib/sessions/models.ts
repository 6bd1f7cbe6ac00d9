/** The `Session` model on `django_session`: key, signed data and expiry date. */
import 'reflect-metadata';
import { Table, Column, DataType } from 'sequelize-typescript';
import { BaseModel, Manager, field, type ModelMeta } from '../../lib/core/db';

/** One stored session (the database session engine writes these). */
@Table({ tableName: 'django_session', timestamps: false })
export class Session extends BaseModel {
  declare static objects: Manager<Session>;
  static override meta: ModelMeta = {
    appLabel: 'sessions',
    verboseName: 'session',
    verboseNamePlural: 'sessions',
    dbTable: 'django_session',
  };

  @Column(field({ type: DataType.STRING(40), primaryKey: true, verboseName: 'session key' }))
  declare session_key: string;

  @Column(field({ type: DataType.TEXT, verboseName: 'session data' }))
  declare session_data: string;

  @Column(field({ type: DataType.DATE(6), dbIndex: true, verboseName: 'expire date' }))
  declare expire_date: Date;

  override toString(): string {
    return this.session_key;
  }
}
