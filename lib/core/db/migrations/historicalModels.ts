/**
 * The models as a point of the migration history describes them, for `RunCode` (Django's
 * `apps` argument of `RunPython`): plain Sequelize models on the current connection with the
 * columns the table had then (foreign keys as their `<name>_id` columns), so a data migration
 * keeps working after the real model class has changed.
 */
import { DataTypes, Model, type ModelAttributeColumnOptions, type ModelStatic } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';
import { columnOf, isForeignKey, type FieldSpec } from './fieldSpec';
import type { ModelState, ProjectState } from './state';

/** The historical models of one state. */
export interface HistoricalApps {
  /** The model `name` of app `app` (`getModel('books', 'Book')`). */
  getModel(app: string, name: string): ModelStatic<Model>;
}

let sequence = 0;

function dataType(spec: FieldSpec, model: ModelState, state: ProjectState): ModelAttributeColumnOptions['type'] {
  switch (spec.type) {
    case 'AutoField':
    case 'IntegerField':
    case 'PositiveIntegerField':
      return DataTypes.INTEGER;
    case 'SmallIntegerField':
      return DataTypes.SMALLINT;
    case 'BigAutoField':
    case 'BigIntegerField':
      return DataTypes.BIGINT;
    case 'BooleanField':
      return DataTypes.BOOLEAN;
    case 'DateTimeField':
      return DataTypes.DATE(6);
    case 'DateField':
      return DataTypes.DATEONLY;
    case 'TimeField':
      return DataTypes.TIME;
    case 'DecimalField':
      return DataTypes.DECIMAL(spec.maxDigits ?? 10, spec.decimalPlaces ?? 0);
    case 'FloatField':
      return DataTypes.DOUBLE;
    case 'UUIDField':
      return DataTypes.UUID;
    case 'JSONField':
      return DataTypes.JSON;
    case 'BinaryField':
      return DataTypes.BLOB;
    case 'TextField':
      return DataTypes.TEXT;
    case 'ForeignKey':
    case 'OneToOneField': {
      const target = spec.to === 'self' ? model : state.resolve(spec.to ?? '', model.app);
      return dataType(target.pk[1], target, state);
    }
    default:
      return DataTypes.STRING(spec.maxLength ?? 255);
  }
}

/**
 * Define the models of `state` on `sequelize` (under private names, so they never clash with
 * the real ones). `release()` removes them again.
 */
export function buildHistoricalApps(sequelize: Sequelize, state: ProjectState): HistoricalApps & { release(): void } {
  const defined = new Map<string, ModelStatic<Model>>();
  const build = (model: ModelState): ModelStatic<Model> => {
    const attributes: Record<string, ModelAttributeColumnOptions> = {};
    for (const [name, spec] of model.concreteFields) {
      const column = columnOf(name, spec);
      attributes[isForeignKey(spec) ? column : name] = {
        type: dataType(spec, model, state),
        field: column,
        allowNull: Boolean(spec.null),
        primaryKey: Boolean(spec.primaryKey),
        autoIncrement: spec.type === 'AutoField' || spec.type === 'BigAutoField',
      };
    }
    sequence += 1;
    return sequelize.define(`__historical_${sequence}_${model.app}_${model.name}`, attributes, { tableName: model.table, timestamps: false, freezeTableName: true });
  };
  return {
    getModel(app: string, name: string): ModelStatic<Model> {
      const model = state.get(app, name);
      let found = defined.get(model.key);
      if (!found) {
        found = build(model);
        defined.set(model.key, found);
      }
      return found;
    },
    release(): void {
      const manager = sequelize.modelManager;
      for (const model of defined.values()) manager.removeModel(model);
      defined.clear();
    },
  };
}
