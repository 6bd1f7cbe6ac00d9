/** Creates shelf_slot, which references library_book (so it must run after library.0002). */
import type { MigrationContext } from '../../../../../lib/core/db/migrations';

export const dependencies = [['library', '0002_author_index']] as const;
export const creates = ['shelf_slot'];

export async function up({ queryInterface, Sequelize }: MigrationContext): Promise<void> {
  await queryInterface.createTable('shelf_slot', {
    id: { type: Sequelize.DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
    book_id: { type: Sequelize.DataTypes.INTEGER, allowNull: false, references: { model: 'library_book', key: 'id' } },
  });
}

export async function down({ queryInterface }: MigrationContext): Promise<void> {
  await queryInterface.dropTable('shelf_slot');
}
