/**
 * A comparable description of a database schema (SQLite or MySQL/MariaDB): per table, the
 * columns (type, NULL, default, primary key), indexes (columns, unique) and foreign keys.
 * Names of indexes are kept; foreign key constraint names are not (SQLite has none).
 */
import { QueryTypes } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';

/** One table. */
export interface TableSnapshot {
  columns: string[];
  indexes: string[];
  foreignKeys: string[];
}

/** Every table but Django's bookkeeping ones, by name. */
export type SchemaSnapshot = Record<string, TableSnapshot>;

async function rows<T extends object>(sequelize: Sequelize, sql: string, bind: unknown[] = []): Promise<T[]> {
  return sequelize.query<T>(sql, { type: QueryTypes.SELECT, ...(bind.length ? { bind } : {}) });
}

/** Describe the tables of the connection (all of them, or those passing `include`). */
export async function schemaSnapshot(sequelize: Sequelize, include: (table: string) => boolean = () => true): Promise<SchemaSnapshot> {
  const snapshot: SchemaSnapshot = {};
  if (sequelize.getDialect() === 'sqlite') {
    const tables = await rows<{ name: string }>(sequelize, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
    for (const { name } of tables) {
      if (!include(name)) continue;
      const q = `"${name.replace(/"/g, '""')}"`;
      const columns = await rows<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(sequelize, `PRAGMA table_info(${q})`);
      const indexList = await rows<{ name: string; unique: number; origin: string }>(sequelize, `PRAGMA index_list(${q})`);
      const indexes: string[] = [];
      for (const index of indexList) {
        if (index.origin === 'pk') continue;
        const info = await rows<{ name: string }>(sequelize, `PRAGMA index_info("${index.name.replace(/"/g, '""')}")`);
        const label = index.origin === 'u' ? '(column unique)' : index.name;
        indexes.push(`${index.unique ? 'UNIQUE ' : ''}${label} (${info.map((c) => c.name).join(', ')})`);
      }
      const fks = await rows<{ from: string; table: string; to: string; on_delete: string }>(sequelize, `PRAGMA foreign_key_list(${q})`);
      snapshot[name] = {
        columns: columns.map((c) => `${c.name} ${c.type.toLowerCase()}${c.notnull || c.pk ? ' NOT NULL' : ' NULL'}${c.pk ? ' PK' : ''}${c.dflt_value !== null ? ` DEFAULT ${c.dflt_value}` : ''}`),
        indexes: indexes.sort(),
        foreignKeys: fks.map((f) => `${f.from} -> ${f.table}.${f.to}${f.on_delete === 'NO ACTION' ? '' : ` ON DELETE ${f.on_delete}`}`).sort(),
      };
    }
    return snapshot;
  }
  const tables = await rows<{ name: string }>(
    sequelize,
    "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME",
  );
  for (const { name } of tables) {
    if (!include(name)) continue;
    const columns = await rows<{ name: string; type: string; nullable: string; dflt: string | null; colKey: string; extra: string }>(
      sequelize,
      'SELECT COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS nullable, COLUMN_DEFAULT AS dflt, COLUMN_KEY AS colKey, EXTRA AS extra ' +
        'FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = $1 ORDER BY ORDINAL_POSITION',
      [name],
    );
    const stats = await rows<{ name: string; nonUnique: number | string; column: string }>(
      sequelize,
      'SELECT INDEX_NAME AS name, NON_UNIQUE AS nonUnique, COLUMN_NAME AS `column` FROM information_schema.STATISTICS ' +
        'WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = $1 ORDER BY INDEX_NAME, SEQ_IN_INDEX',
      [name],
    );
    const byIndex = new Map<string, { unique: boolean; columns: string[] }>();
    for (const s of stats) {
      if (s.name === 'PRIMARY') continue;
      const entry = byIndex.get(s.name) ?? { unique: Number(s.nonUnique) === 0, columns: [] };
      entry.columns.push(s.column);
      byIndex.set(s.name, entry);
    }
    const fks = await rows<{ column: string; refTable: string; refColumn: string; deleteRule: string }>(
      sequelize,
      'SELECT k.COLUMN_NAME AS `column`, k.REFERENCED_TABLE_NAME AS refTable, k.REFERENCED_COLUMN_NAME AS refColumn, r.DELETE_RULE AS deleteRule ' +
        'FROM information_schema.KEY_COLUMN_USAGE k JOIN information_schema.REFERENTIAL_CONSTRAINTS r ' +
        'ON r.CONSTRAINT_SCHEMA = k.TABLE_SCHEMA AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME AND r.TABLE_NAME = k.TABLE_NAME ' +
        'WHERE k.TABLE_SCHEMA = DATABASE() AND k.TABLE_NAME = $1 AND k.REFERENCED_TABLE_NAME IS NOT NULL',
      [name],
    );
    snapshot[name] = {
      columns: columns.map(
        (c) => `${c.name} ${c.type.toLowerCase()}${c.nullable === 'YES' ? ' NULL' : ' NOT NULL'}${c.colKey === 'PRI' ? ' PK' : ''}${c.extra ? ` ${c.extra}` : ''}${c.dflt !== null && c.dflt !== 'NULL' ? ` DEFAULT ${c.dflt}` : ''}`,
      ),
      indexes: [...byIndex].map(([n, i]) => `${i.unique ? 'UNIQUE ' : ''}${i.unique && i.columns.length === 1 && n === i.columns[0] ? '(column unique)' : n} (${i.columns.join(', ')})`).sort(),
      foreignKeys: fks.map((f) => `${f.column} -> ${f.refTable}.${f.refColumn}${['RESTRICT', 'NO ACTION'].includes(f.deleteRule) ? '' : ` ON DELETE ${f.deleteRule}`}`).sort(),
    };
  }
  return snapshot;
}
