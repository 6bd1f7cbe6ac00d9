/**
 * The auth and content-type tables, as the host framework's migrations leave them (auth 0012,
 * contenttypes 0002). Recorded as `auth.0001_initial`: the content-type table belongs to
 * `contrib.auth` here, since the migration runner records one label per app. A database made by
 * the original has `auth.0001_initial` applied already and is recognised as is.
 */
import type { MigrationContext } from '../../../lib/core/db/migrations';

export const creates = [
  'django_content_type',
  'auth_permission',
  'auth_group',
  'auth_group_permissions',
  'auth_user',
  'auth_user_groups',
  'auth_user_user_permissions',
];

/** A join table with its own `id`, two foreign keys, a unique pair and an index per key. */
async function joinTable(
  { queryInterface, Sequelize }: MigrationContext,
  table: string,
  [left, leftTable]: [string, string],
  [right, rightTable]: [string, string],
  suffixes: [string, string, string],
): Promise<void> {
  const { DataTypes } = Sequelize;
  await queryInterface.createTable(table, {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
    [left]: { type: DataTypes.INTEGER, allowNull: false, references: { model: leftTable, key: 'id' } },
    [right]: { type: DataTypes.INTEGER, allowNull: false, references: { model: rightTable, key: 'id' } },
  });
  await queryInterface.addIndex(table, [left, right], { unique: true, name: `${table}_${left}_${right}_${suffixes[0]}_uniq` });
  await queryInterface.addIndex(table, [left], { name: `${table}_${left}_${suffixes[1]}` });
  await queryInterface.addIndex(table, [right], { name: `${table}_${right}_${suffixes[2]}` });
}

export async function up(context: MigrationContext): Promise<void> {
  const { queryInterface, Sequelize } = context;
  const { DataTypes } = Sequelize;
  const id = { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false };
  const datetime = DataTypes.DATE(6);

  await queryInterface.createTable('django_content_type', {
    id,
    app_label: { type: DataTypes.STRING(100), allowNull: false },
    model: { type: DataTypes.STRING(100), allowNull: false },
  });
  await queryInterface.addIndex('django_content_type', ['app_label', 'model'], {
    unique: true,
    name: 'django_content_type_app_label_model_76bd3d3b_uniq',
  });

  await queryInterface.createTable('auth_permission', {
    id,
    content_type_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'django_content_type', key: 'id' } },
    codename: { type: DataTypes.STRING(100), allowNull: false },
    name: { type: DataTypes.STRING(255), allowNull: false },
  });
  await queryInterface.addIndex('auth_permission', ['content_type_id', 'codename'], {
    unique: true,
    name: 'auth_permission_content_type_id_codename_01ab375a_uniq',
  });
  await queryInterface.addIndex('auth_permission', ['content_type_id'], { name: 'auth_permission_content_type_id_2f476e4b' });

  await queryInterface.createTable('auth_group', {
    id,
    name: { type: DataTypes.STRING(150), allowNull: false, unique: true },
  });
  await joinTable(context, 'auth_group_permissions', ['group_id', 'auth_group'], ['permission_id', 'auth_permission'], [
    '0cd325b0',
    'b120cbf9',
    '84c5c92e',
  ]);

  await queryInterface.createTable('auth_user', {
    id,
    password: { type: DataTypes.STRING(128), allowNull: false },
    last_login: { type: datetime, allowNull: true },
    is_superuser: { type: DataTypes.BOOLEAN, allowNull: false },
    username: { type: DataTypes.STRING(150), allowNull: false, unique: true },
    last_name: { type: DataTypes.STRING(150), allowNull: false },
    email: { type: DataTypes.STRING(254), allowNull: false },
    is_staff: { type: DataTypes.BOOLEAN, allowNull: false },
    is_active: { type: DataTypes.BOOLEAN, allowNull: false },
    date_joined: { type: datetime, allowNull: false },
    first_name: { type: DataTypes.STRING(150), allowNull: false },
  });
  await joinTable(context, 'auth_user_groups', ['user_id', 'auth_user'], ['group_id', 'auth_group'], ['94350c0c', '6a12ed8b', '97559544']);
  await joinTable(context, 'auth_user_user_permissions', ['user_id', 'auth_user'], ['permission_id', 'auth_permission'], [
    '14a6b632',
    'a95ead1b',
    '1fbb5f2c',
  ]);
}

export async function down({ queryInterface }: MigrationContext): Promise<void> {
  for (const table of [...creates].reverse()) await queryInterface.dropTable(table);
}
