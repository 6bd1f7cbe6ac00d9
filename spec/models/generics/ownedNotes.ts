/**
 * The suite fixture of the retrieve-path specs (`representationJoins`, `deferredLoading`): a
 * test database of `GOwner` and `GNote` with JSON-only API settings, and before each test an
 * owner "ann" with one note ("owned", rank 2) and a note without an owner ("orphan", rank 3).
 */
import type { Test } from 'uvu';
import { jsonOnlyApiSettings, useSettings } from '../../helpers';
import { useTestDatabase } from '../../../lib/core/db/testing';
import { GNote, GOwner } from './models';

/** The ids of the notes seeded before the current test. */
export interface OwnedNotes {
  readonly noteId: number;
  readonly orphanId: number;
}

/** Set the fixture up for `test`; `owned` adds columns to the owned note. */
export function useOwnedNotes(test: Test, owned: { language?: string } = {}): OwnedNotes {
  useTestDatabase(test, { models: [GOwner, GNote] });
  useSettings(test, () => ({ API_FRAMEWORK: jsonOnlyApiSettings() }));
  const ids = { noteId: 0, orphanId: 0 };
  test.before.each(async () => {
    await GNote.objects.all().delete();
    await GOwner.objects.all().delete();
    const owner = await GOwner.objects.create({ username: 'ann', password: 'secret' });
    ids.noteId = (await GNote.objects.create({ title: 'owned', rank: 2, ...owned, owner_id: owner.id })).id;
    ids.orphanId = (await GNote.objects.create({ title: 'orphan', rank: 3, owner_id: null })).id;
  });
  return ids;
}
