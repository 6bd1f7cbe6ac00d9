/**
 * The snippet table, as the original tutorial's `snippets.0001_initial` leaves it.
 */
import type { MigrationContext } from '../../../lib/core/db';

export const dependencies = [['auth', '0001_initial']] as const;
export const creates = ['snippets_snippet'];
export const initial = true;

/** Create `snippets_snippet` and its owner index. */
export async function up({ queryInterface, Sequelize }: MigrationContext): Promise<void> {
  const { DataTypes } = Sequelize;
  await queryInterface.createTable('snippets_snippet', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
    created: { type: DataTypes.DATE(6), allowNull: false },
    title: { type: DataTypes.STRING(100), allowNull: false },
    code: { type: DataTypes.TEXT, allowNull: false },
    linenos: { type: DataTypes.BOOLEAN, allowNull: false },
    language: { type: DataTypes.STRING(100), allowNull: false },
    style: { type: DataTypes.STRING(100), allowNull: false },
    highlighted: { type: DataTypes.TEXT, allowNull: false },
    owner_id: {
      type: DataTypes.INTEGER,
      allowNull: false,
      references: { model: 'auth_user', key: 'id' },
      onDelete: 'CASCADE',
    },
  });
  await queryInterface.addIndex('snippets_snippet', ['owner_id'], { name: 'snippets_snippet_owner_id_20604299' });
}

/** Drop `snippets_snippet`. */
export async function down({ queryInterface }: MigrationContext): Promise<void> {
  await queryInterface.dropTable('snippets_snippet');
}
