/** Adds an index on author names. */
import type { MigrationContext } from '../../../../../lib/core/db/migrations';

export async function up({ queryInterface }: MigrationContext): Promise<void> {
  await queryInterface.addIndex('library_author', ['name'], { name: 'library_author_name_idx' });
}

export async function down({ queryInterface }: MigrationContext): Promise<void> {
  await queryInterface.removeIndex('library_author', 'library_author_name_idx');
}
