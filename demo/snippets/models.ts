/**
 * The tutorial's model: a code snippet with its owner, stored on `snippets_snippet` (the
 * original's table, so a database the original migrated is served unchanged).
 */
import 'reflect-metadata';
import { BelongsTo, Column, DataType, ForeignKey, Table } from 'sequelize-typescript';
import type { SaveOptions } from 'sequelize';
import { BaseModel, field, relation, type Manager, type ModelMeta } from 'api_framework/db';
import { User } from 'api_framework/contrib/auth';
import { LANGUAGE_CHOICES, STYLE_CHOICES } from './choices';
import { highlightDocument } from './highlight';

export { LANGUAGE_CHOICES, STYLE_CHOICES };

/**
 * A code snippet. `highlighted` is regenerated on every save from the code, language, style,
 * line-number flag and title, as a full HTML document.
 */
@Table({ tableName: 'snippets_snippet' })
export class Snippet extends BaseModel {
  declare static objects: Manager<Snippet>;
  static override meta: ModelMeta = { appLabel: 'snippets', ordering: ['created'] };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true, verboseName: 'ID' }))
  declare id: number;

  @Column(field({ type: DataType.DATE(6), autoNowAdd: true }))
  declare created: Date;

  @Column(field({ type: DataType.STRING(100), blank: true, default: '' }))
  declare title: string;

  @Column(field({ type: DataType.TEXT }))
  declare code: string;

  @Column(field({ type: DataType.BOOLEAN, default: false }))
  declare linenos: boolean;

  @Column(field({ type: DataType.STRING(100), choices: LANGUAGE_CHOICES, default: 'python' }))
  declare language: string;

  @Column(field({ type: DataType.STRING(100), choices: STYLE_CHOICES, default: 'friendly' }))
  declare style: string;

  @ForeignKey(() => User)
  @Column(field({ type: DataType.INTEGER }))
  declare owner_id: number;

  @BelongsTo(() => User, relation({ foreignKey: 'owner_id', relatedName: 'snippets', onDelete: 'CASCADE' }))
  declare owner?: User;

  @Column(field({ type: DataType.TEXT }))
  declare highlighted: string;

  /** Render the highlighted HTML document of the snippet, then save it. */
  override async save(options?: SaveOptions): Promise<this> {
    this.highlighted = highlightDocument({
      code: this.code ?? '',
      language: this.language ?? 'python',
      style: this.style ?? 'friendly',
      linenos: Boolean(this.linenos),
      title: this.title,
    });
    return super.save(options);
  }
}
