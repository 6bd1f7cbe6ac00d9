/** The `django_session` table, as the host framework's `sessions.0001_initial` creates it. */
import type { MigrationContext } from '../../../lib/core/db/migrations';

export const creates = ['django_session'];

export async function up({ queryInterface, Sequelize, vendor }: MigrationContext): Promise<void> {
  const { DataTypes } = Sequelize;
  await queryInterface.createTable('django_session', {
    session_key: { type: DataTypes.STRING(40), primaryKey: true, allowNull: false },
    // Django's TextField is `longtext` on MySQL, `text` on SQLite.
    session_data: { type: vendor === 'mysql' ? DataTypes.TEXT('long') : DataTypes.TEXT, allowNull: false },
    expire_date: { type: DataTypes.DATE(6), allowNull: false },
  });
  await queryInterface.addIndex('django_session', ['expire_date'], { name: 'django_session_expire_date_a5c62663' });
}

export async function down({ queryInterface }: MigrationContext): Promise<void> {
  await queryInterface.dropTable('django_session');
}
