/**
 * The `Token` model: one API token per user, on DRF's table `authtoken_token`.
 */
import 'reflect-metadata';
import crypto from 'node:crypto';
import { BelongsTo, Column, DataType, ForeignKey, Table } from 'sequelize-typescript';
import type { SaveOptions } from 'sequelize';
import { BaseModel, field, relation, type Manager, type ModelMeta } from '../../lib/core/db';
import { getUserModel, type User } from '../auth';

/** The user model tokens belong to (`AUTH_USER_MODEL`). */
export function userModel(): typeof User {
  return getUserModel();
}

/**
 * The default authorization token model: `key` (40 hex characters, the primary key), the
 * `user` it authenticates (one token per user) and when it was `created`.
 */
@Table({ tableName: 'authtoken_token', timestamps: false })
export class Token extends BaseModel {
  declare static objects: Manager<Token>;
  static override meta: ModelMeta = { appLabel: 'authtoken', verboseName: 'Token', verboseNamePlural: 'Tokens' };

  @Column(field({ type: DataType.STRING(40), primaryKey: true, verboseName: 'Key' }))
  declare key: string;

  @ForeignKey(() => userModel())
  @Column(field({ type: DataType.INTEGER, unique: true, verboseName: 'User' }))
  declare user_id: number;

  @BelongsTo(() => userModel(), relation({ foreignKey: 'user_id', relatedName: 'auth_token', onDelete: 'CASCADE', verboseName: 'User' }))
  declare user?: User;

  @Column(field({ type: DataType.DATE, autoNowAdd: true, verboseName: 'Created' }))
  declare created: Date;

  /** A new random key: 20 bytes from the system's CSPRNG, as 40 hex characters. */
  static generateKey(): string {
    return crypto.randomBytes(20).toString('hex');
  }

  /**
   * The user's token, created when missing: `[token, created]`. Safe against concurrent
   * callers (the unique `user_id` decides, the loser reads the winner's token).
   */
  static getOrCreateForUser(user: { pk: unknown }): Promise<[Token, boolean]> {
    // The configured user model (AUTH_USER_MODEL) is not known here; its pk is the integer `user_id` refers to.
    return Token.objects.getOrCreate({ user_id: user.pk as Token['user_id'] });
  }

  /** The active or inactive user with this username, or null. */
  static async findUserByUsername(username: string): Promise<User | null> {
    const model = userModel();
    return model.objects.filter({ [model.USERNAME_FIELD]: username }).first();
  }

  /** Give the token a key on first save (DRF's `Token.save()`). */
  override async save(options?: SaveOptions): Promise<this> {
    if (!this.key) this.key = Token.generateKey();
    return super.save(options);
  }

  /** The key, as DRF's `__str__`. */
  override toString(): string {
    return this.key;
  }
}
