/** Creates the library tables. */
import type { MigrationContext } from '../../../../../lib/core/db/migrations';

export const creates = ['library_author', 'library_tag', 'library_book', 'library_book_tags'];

export async function up({ queryInterface, Sequelize }: MigrationContext): Promise<void> {
  const { DataTypes } = Sequelize;
  const id = { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false };
  await queryInterface.createTable('library_author', {
    id,
    name: { type: DataTypes.STRING(100), allowNull: false },
    email: { type: DataTypes.STRING(254), allowNull: false, defaultValue: '' },
  });
  await queryInterface.createTable('library_tag', {
    id,
    name: { type: DataTypes.STRING(50), allowNull: false, unique: true },
  });
  await queryInterface.createTable('library_book', {
    id,
    title: { type: DataTypes.STRING(200), allowNull: false },
    price: { type: DataTypes.DECIMAL(6, 2), allowNull: true },
    in_print: { type: DataTypes.BOOLEAN, allowNull: false },
    format: { type: DataTypes.STRING(10), allowNull: false },
    created: { type: DataTypes.DATE(6), allowNull: false },
    author_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'library_author', key: 'id' } },
    editor_id: { type: DataTypes.INTEGER, allowNull: true, references: { model: 'library_author', key: 'id' } },
  });
  await queryInterface.createTable('library_book_tags', {
    id,
    book_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'library_book', key: 'id' } },
    tag_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'library_tag', key: 'id' } },
  });
}

export async function down({ queryInterface }: MigrationContext): Promise<void> {
  for (const table of ['library_book_tags', 'library_book', 'library_tag', 'library_author']) await queryInterface.dropTable(table);
}
