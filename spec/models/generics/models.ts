/** Test models for the generic views, pagination and filter specs: owners and their notes. */
import 'reflect-metadata';
import { Table, Column, DataType, ForeignKey, BelongsTo } from 'sequelize-typescript';
import { BaseModel, Manager, field, relation, type ModelMeta } from '../../../lib/core/db';

@Table({ tableName: 'generics_owner' })
export class GOwner extends BaseModel {
  declare static objects: Manager<GOwner>;
  static override meta: ModelMeta = { appLabel: 'generics', ordering: ['id'] };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(100) }))
  declare username: string;

  @Column(field({ type: DataType.STRING(128), default: '' }))
  declare password: string;
}

@Table({ tableName: 'generics_note' })
export class GNote extends BaseModel {
  declare static objects: Manager<GNote>;
  static override meta: ModelMeta = { appLabel: 'generics', ordering: ['id'] };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(200) }))
  declare title: string;

  @Column(field({ type: DataType.STRING(20), default: 'python', choices: [['python', 'Python'], ['js', 'JavaScript']] }))
  declare language: string;

  @Column(field({ type: DataType.INTEGER, default: 0 }))
  declare rank: number;

  @Column(field({ type: DataType.BOOLEAN, default: false }))
  declare done: boolean;

  @Column(field({ type: DataType.DATE(3), autoNowAdd: true }))
  declare created: Date;

  @ForeignKey(() => GOwner)
  @Column(field({ type: DataType.INTEGER, allowNull: true }))
  declare owner_id: number | null;

  @BelongsTo(() => GOwner, relation({ foreignKey: 'owner_id', relatedName: 'notes', onDelete: 'CASCADE' }))
  declare owner?: GOwner | null;
}

/** A serializer good enough for the specs: id, title, language, rank, url. */
export class NoteSerializer {
  instance: unknown;
  initialData: unknown;
  partial: boolean;
  many: boolean;
  context: Record<string, unknown>;
  validatedData: Record<string, unknown> = {};
  errors: Record<string, string[]> = {};
  static withUrl = false;
  fields = { id: { label: 'ID' }, title: { label: 'Title' }, rank: { label: 'Rank' }, secret: { source: 'owner.password', writeOnly: true } };

  constructor(options: { instance?: unknown; data?: unknown; many?: boolean; partial?: boolean; context?: Record<string, unknown> }) {
    this.instance = options.instance;
    this.initialData = options.data;
    this.partial = options.partial ?? false;
    this.many = options.many ?? false;
    this.context = options.context ?? {};
  }

  async isValid(options: { raiseException?: boolean } = {}): Promise<boolean> {
    const { ValidationError } = await import('../../../lib/exceptions');
    const data = (this.initialData ?? {}) as Record<string, unknown>;
    this.errors = {};
    this.validatedData = {};
    if (data.title === undefined && !this.partial) this.errors.title = ['This field is required.'];
    else if (data.title !== undefined) this.validatedData.title = String(data.title);
    if (data.rank !== undefined) this.validatedData.rank = Number(data.rank);
    const ok = Object.keys(this.errors).length === 0;
    if (!ok && options.raiseException) throw new ValidationError(this.errors);
    return ok;
  }

  async save(extra: Record<string, unknown> = {}): Promise<unknown> {
    if (this.instance) {
      const note = this.instance as GNote;
      Object.assign(note, this.validatedData, extra);
      await note.save();
    } else {
      this.instance = await GNote.objects.create({ ...this.validatedData, ...extra });
    }
    return this.instance;
  }

  represent(note: GNote): Record<string, unknown> {
    const out: Record<string, unknown> = { id: note.id, title: note.title, rank: note.rank };
    if (NoteSerializer.withUrl) out.url = `http://testserver/notes/${note.id}/`;
    return out;
  }

  async getData(): Promise<unknown> {
    if (this.many) return (this.instance as GNote[]).map((note) => this.represent(note));
    return this.represent(this.instance as GNote);
  }
}
