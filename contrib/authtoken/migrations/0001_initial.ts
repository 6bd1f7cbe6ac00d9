/**
 * The token table, as Django REST framework's authtoken migrations 0001-0003 leave it:
 * `key` varchar(40) primary key, `created` datetime, `user_id` unique FK to `auth_user`.
 * A database Django migrated already has it; `migrate --fake-initial` records this as applied.
 */
import type { MigrationContext } from '../../../lib/core/db/migrations';

export const dependencies = [['auth', '0001_initial']] as const;
export const creates = ['authtoken_token'];
export const initial = true;

/** Create `authtoken_token`. */
export async function up({ queryInterface, Sequelize }: MigrationContext): Promise<void> {
  const { DataTypes } = Sequelize;
  await queryInterface.createTable('authtoken_token', {
    key: { type: DataTypes.STRING(40), allowNull: false, primaryKey: true },
    created: { type: DataTypes.DATE(6), allowNull: false },
    user_id: {
      type: DataTypes.INTEGER,
      allowNull: false,
      unique: true,
      references: { model: 'auth_user', key: 'id' },
      onDelete: 'CASCADE',
    },
  });
}

/** Drop `authtoken_token`. */
export async function down({ queryInterface }: MigrationContext): Promise<void> {
  await queryInterface.dropTable('authtoken_token');
}
