/**
 * The statement runner's MySQL/MariaDB reads (lib/core/db/mysqlTypeCast.ts): rows read with
 * mysql2's own conversions and cast afterwards hold exactly what Sequelize's typeCast gives
 * `sequelize.query` — every column type, NULLs, with bound values and without (prepared too,
 * where Sequelize sends a plain query: a column of a type the two protocols answer differently
 * makes it read again as a plain query) —; a GEOMETRY column (which only the typeCast can read)
 * is read again with it; Sequelize's own queries on the same connections keep its typeCast.
 * MariaDB only (`npm run test:mysql`).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { QueryTypes } from 'sequelize';
import { atomic, getSequelize } from '../../../lib/core/db';
import { parseDatabaseUrl } from '../../../lib/core/db/connection';
import { useTestDatabase } from '../../../lib/core/db/testing';
import { runStatement } from '../../../lib/core/db/statementRunner';
import { castAsSequelize, castsPerCall } from '../../../lib/core/db/mysqlTypeCast';
import { settings } from '../../../lib/core/conf';
import { reportSkipped } from '../../skip';

const MYSQL = parseDatabaseUrl(settings.DATABASE_URL).vendor === 'mysql';
const test = suite('core/db mysql type cast');

if (MYSQL) {
  useTestDatabase(test);

  const VALUES = 'mtc_values';
  const SHAPES = 'mtc_shapes';

  test.before(async () => {
    const sequelize = getSequelize();
    await sequelize.query(`DROP TABLE IF EXISTS ${VALUES}`);
    await sequelize.query(`DROP TABLE IF EXISTS ${SHAPES}`);
    await sequelize.query(
      `CREATE TABLE ${VALUES} (id INT AUTO_INCREMENT PRIMARY KEY, dt6 DATETIME(6) NULL, dt DATETIME NULL, d DATE NULL,
        ts TIMESTAMP NULL DEFAULT NULL, tm TIME(3) NULL, flag TINYINT(1) NULL, n INT NULL, big BIGINT NULL, huge BIGINT UNSIGNED NULL,
        amount DECIMAL(10,2) NULL, f FLOAT NULL, dbl DOUBLE NULL, s VARCHAR(20) NULL, t LONGTEXT NULL, bl BLOB NULL,
        j JSON NULL, y YEAR NULL, bits BIT(8) NULL, e ENUM('a','b') NULL)`,
    );
    await sequelize.query(
      `INSERT INTO ${VALUES} (dt6, dt, d, ts, tm, flag, n, big, huge, amount, f, dbl, s, t, bl, j, y, bits, e) VALUES
        ('2024-02-29 23:59:58.123456', '1999-12-31 00:00:01', '2024-01-02', '2021-06-07 08:09:10', '12:34:56.789', 1, -7,
         9007199254740993, 18446744073709551615, 12.50, 0.1, 0.30000000000000004, 'text', 'long text', X'00FF10', '{"a":[1,2]}', 2024, b'101', 'b'),
        (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
        ('2024-01-01 00:00:00.000000', '2024-01-01 00:00:00', '1970-01-01', '1970-01-02 00:00:00', '-01:00:00', 0, 0, -1, 0, -0.01, -1.5, 1e300, '', '', X'', 'null', 1901, b'0', 'a')`,
    );
    await sequelize.query(`CREATE TABLE ${SHAPES} (id INT AUTO_INCREMENT PRIMARY KEY, at GEOMETRY NULL, made DATETIME NULL)`);
    await sequelize.query(`INSERT INTO ${SHAPES} (at, made) VALUES (ST_GeomFromText('POINT(1 2)'), '2020-01-01 10:00:00'), (NULL, NULL)`);
  });

  test.after(async () => {
    await getSequelize().query(`DROP TABLE IF EXISTS ${VALUES}`);
    await getSequelize().query(`DROP TABLE IF EXISTS ${SHAPES}`);
  });

  /** What Sequelize's own query answers (its typeCast on the connection). */
  function viaSequelize(sql: string, bind: unknown[]): Promise<Array<Record<string, unknown>>> {
    return getSequelize().query(sql, { bind: bind.length ? bind : undefined, type: QueryTypes.SELECT, raw: true }) as Promise<Array<Record<string, unknown>>>;
  }

  const READS: Array<[string, string, unknown[]]> = [
    ['without bound values (prepared, where Sequelize sends a plain query)', `SELECT id, dt6, dt, d, flag, n, big, huge, amount, s, t, bl, j, y, bits, e FROM ${VALUES} ORDER BY id`, []],
    ['without bound values, with FLOAT, DOUBLE, TIME and TIMESTAMP columns (read again as a plain query)', `SELECT * FROM ${VALUES} ORDER BY id`, []],
    ['with bound values (prepared, binary protocol)', `SELECT * FROM ${VALUES} WHERE id >= $1 ORDER BY id`, [0]],
    ['a column named twice', `SELECT dt AS x, n AS x, d AS y, dt6 AS y FROM ${VALUES} WHERE id >= $1 ORDER BY id`, [0]],
  ];

  for (const [label, sql, bind] of READS) {
    test(`values ${label}: what sequelize.query answers`, async () => {
      const expected = await viaSequelize(sql, bind);
      const actual = (await runStatement(getSequelize(), sql, bind, { type: 'SELECT' })).rows;
      assert.equal(actual, expected);
      for (let i = 0; i < expected.length; i++) {
        for (const key of Object.keys(expected[i])) {
          assert.is(Object.prototype.toString.call(actual[i][key]), Object.prototype.toString.call(expected[i][key]), `row ${i} ${key}`);
        }
      }
    });
  }

  test('values: DATETIME as Date, DATE as text (Sequelize’s parsers), as before', async () => {
    const [row] = (await runStatement(getSequelize(), `SELECT dt6, dt, d FROM ${VALUES} WHERE id = $1`, [1], { type: 'SELECT' })).rows;
    assert.instance(row.dt6, Date);
    assert.is((row.dt6 as Date).toISOString(), '2024-02-29T23:59:58.123Z');
    assert.is((row.dt as Date).toISOString(), '1999-12-31T00:00:01.000Z');
    assert.is(row.d, '2024-01-02');
  });

  test('statements without bound values run prepared (the server parses their text once per connection)', async () => {
    const executions = async (): Promise<number> => {
      const [row] = (await getSequelize().query("SHOW SESSION STATUS LIKE 'Com_stmt_execute'", { type: QueryTypes.SELECT, raw: true })) as Array<{ Value: string }>;
      return Number(row.Value);
    };
    await atomic(async () => {
      const before = await executions();
      await runStatement(getSequelize(), `SELECT id, s FROM ${VALUES} ORDER BY id`, [], { type: 'SELECT' });
      assert.is(await executions(), before + 1);
    });
  });

  test('GEOMETRY: read with Sequelize’s typeCast (GeoJSON), also the next time', async () => {
    const sql = `SELECT id, at, made FROM ${SHAPES} WHERE id >= $1 ORDER BY id`;
    const expected = await viaSequelize(sql, [0]);
    assert.equal(expected[0].at, { type: 'Point', coordinates: [1, 2] });
    for (let i = 0; i < 2; i++) {
      assert.equal((await runStatement(getSequelize(), sql, [0], { type: 'SELECT' })).rows, expected);
    }
  });

  test('connections: the typeCast is applied per call; calls that name none get Sequelize’s', async () => {
    const sequelize = getSequelize();
    const manager = sequelize.connectionManager as unknown as { getConnection(options: object): Promise<unknown>; releaseConnection(connection: unknown): unknown };
    const connection = (await manager.getConnection({ type: 'SELECT' })) as {
      config: { typeCast: unknown };
      query(sql: string, callback: (error: Error | null, rows: unknown) => void): unknown;
    };
    try {
      assert.ok(castsPerCall(connection as object));
      assert.is(connection.config.typeCast, true);
      const rows = await new Promise<Array<Record<string, unknown>>>((resolve, reject) => {
        connection.query(`SELECT d, at FROM ${VALUES} JOIN ${SHAPES} ON ${SHAPES}.id = ${VALUES}.id WHERE ${VALUES}.id = 1`, (error, result) =>
          error ? reject(error) : resolve(result as Array<Record<string, unknown>>),
        );
      });
      assert.is(rows[0].d, '2024-01-02');
      assert.equal(rows[0].at, { type: 'Point', coordinates: [1, 2] });
    } finally {
      manager.releaseConnection(connection);
    }
  });

  test('castAsSequelize: false for a column only the typeCast can read; rows left as they are', () => {
    const rows = [{ at: 'raw', made: '2020-01-01 10:00:00' }];
    assert.is(castAsSequelize(rows, [{ name: 'made', columnType: 12 }, { name: 'at', columnType: 255 }], getSequelize().options), false);
    assert.equal(rows, [{ at: 'raw', made: '2020-01-01 10:00:00' }]);
    assert.is(castAsSequelize(rows, [{ name: 'made', columnType: 12 }], getSequelize().options), true);
    assert.instance(rows[0].made, Date);
  });
} else {
  reportSkipped('core/db mysql type cast', 'run `npm run test:mysql` to run the MariaDB type cast tests');
}

test.run();
