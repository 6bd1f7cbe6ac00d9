/**
 * Django's migration recorder: the `django_migrations` table (`id`, `app`, `name`,
 * `applied`), so a database migrated by the host framework is recognised and vice versa.
 */
import { QueryTypes } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';

const TABLE = 'django_migrations';

/** Reads and writes the applied-migrations table. */
export class MigrationRecorder {
  private ensured = false;

  constructor(private readonly sequelize: Sequelize) {}

  /** Create `django_migrations` when missing (Django's `ensure_schema`). */
  async ensureSchema(): Promise<void> {
    if (this.ensured) return;
    const qi = this.sequelize.getQueryInterface();
    const tables = (await qi.showAllTables()).map(String);
    if (!tables.includes(TABLE)) {
      // The host framework's own DDL for the table.
      const sql =
        this.sequelize.getDialect() === 'sqlite'
          ? `CREATE TABLE "${TABLE}" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "app" varchar(255) NOT NULL, "name" varchar(255) NOT NULL, "applied" datetime NOT NULL)`
          : `CREATE TABLE \`${TABLE}\` (\`id\` integer AUTO_INCREMENT NOT NULL PRIMARY KEY, \`app\` varchar(255) NOT NULL, \`name\` varchar(255) NOT NULL, \`applied\` datetime(6) NOT NULL) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci`;
      await this.sequelize.query(sql);
    }
    this.ensured = true;
  }

  /** Record `app.name` as applied. */
  async recordApplied(key: string): Promise<void> {
    await this.ensureSchema();
    const [app, name] = splitKey(key);
    await this.sequelize.getQueryInterface().bulkInsert(TABLE, [{ app, name, applied: new Date() }]);
  }

  /** Forget `app.name`. */
  async recordUnapplied(key: string): Promise<void> {
    await this.ensureSchema();
    const [app, name] = splitKey(key);
    await this.sequelize.getQueryInterface().bulkDelete(TABLE, { app, name });
  }

  /** Every recorded `app.name` (apps this project does not know included). */
  async applied(): Promise<string[]> {
    await this.ensureSchema();
    const q = (name: string): string => this.sequelize.getQueryInterface().quoteIdentifier(name);
    const rows = await this.sequelize.query<{ app: string; name: string }>(`SELECT ${q('app')}, ${q('name')} FROM ${q(TABLE)}`, { type: QueryTypes.SELECT });
    return rows.map((r) => `${r.app}.${r.name}`);
  }
}

function splitKey(key: string): [string, string] {
  const dot = key.indexOf('.');
  return [key.slice(0, dot), key.slice(dot + 1)];
}
