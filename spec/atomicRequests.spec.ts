/**
 * ATOMIC_REQUESTS: the handler runs each view in `atomic()`; the exception handler marks the
 * request's transaction for rollback when it answers an error (DRF's `set_rollback()`), and an
 * unhandled error (a 500) rolls it back too. `nonAtomicRequests(view)` opts a view out.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { jsonOnlyApiSettings } from './helpers';
import { overrideSettings } from '../lib/core/conf';
import { useTestDatabase } from '../lib/core/db/testing';
import { inAtomicBlock, nonAtomicRequests } from '../lib/core/db';
import { path } from '../lib/core/urls';
import { APIClient } from '../lib/test';
import { APIView } from '../lib/views';
import { ValidationError } from '../lib/exceptions';
import { Response } from '../lib/response';
import type { Request } from '../lib/request';
import { GNote, GOwner } from './models/generics/models';

const test = suite('atomicRequests');
useTestDatabase(test, { models: [GOwner, GNote] });

/** Writes a note named by the URL, then answers, fails validation or crashes. */
class WriteView extends APIView {
  async post(request: Request) {
    const outcome = String(this.kwargs.outcome);
    await GNote.objects.create({ title: `${outcome}-${String(request.queryParams.get('n') ?? '')}`, rank: 1 });
    if (outcome === 'invalid') throw new ValidationError({ title: ['This field is invalid.'] });
    if (outcome === 'crash') throw new Error('the view crashed after writing');
    return new Response({ atomic: inAtomicBlock() }, { status: 201 });
  }
}

/** The URL conf of this suite (ROOT_URLCONF = 'spec/atomicRequests.spec'). */
export const urlpatterns = [
  path('write/<str:outcome>/', WriteView.asView()),
  path('non-atomic/<str:outcome>/', nonAtomicRequests(WriteView.asView())),
];

let restore: () => void = () => undefined;
test.before(() => {
  restore = overrideSettings.enter({
    ROOT_URLCONF: 'spec/atomicRequests.spec',
    MIDDLEWARE: [],
    API_FRAMEWORK: jsonOnlyApiSettings(),
  });
});
test.after(() => restore());
test.before.each(async () => {
  await GNote.objects.all().delete();
});

const titles = async (): Promise<string[]> => (await GNote.objects.orderBy('id').valuesList('title', { flat: true })) as string[];
const client = new APIClient();

test('ATOMIC_REQUESTS :: a successful view commits, inside a transaction', async () => {
  await overrideSettings({ ATOMIC_REQUESTS: true }, async () => {
    const response = await client.post('/write/ok/?n=1');
    assert.is(response.status, 201);
    assert.equal(response.data, { atomic: true });
  });
  assert.equal(await titles(), ['ok-1']);
});

test('ATOMIC_REQUESTS :: a handled error (ValidationError -> 400) leaves no row', async () => {
  await overrideSettings({ ATOMIC_REQUESTS: true }, async () => {
    const response = await client.post('/write/invalid/?n=2');
    assert.is(response.status, 400);
    assert.equal(response.json(), { title: ['This field is invalid.'] });
  });
  assert.equal(await titles(), []);
});

test('ATOMIC_REQUESTS :: an unhandled error (500) rolls back too', async () => {
  await overrideSettings({ ATOMIC_REQUESTS: true, LOG_SERVER_ERRORS: false }, async () => {
    const response = await client.post('/write/crash/?n=3');
    assert.is(response.status, 500);
  });
  assert.equal(await titles(), []);
});

test('ATOMIC_REQUESTS :: nonAtomicRequests views run without the transaction', async () => {
  await overrideSettings({ ATOMIC_REQUESTS: true }, async () => {
    const ok = await client.post('/non-atomic/ok/?n=4');
    assert.equal(ok.data, { atomic: false });
    const invalid = await client.post('/non-atomic/invalid/?n=5');
    assert.is(invalid.status, 400);
  });
  assert.equal(await titles(), ['ok-4', 'invalid-5']);
});

test('ATOMIC_REQUESTS off (default) :: no transaction, writes before an error stay', async () => {
  const ok = await client.post('/write/ok/?n=6');
  assert.equal(ok.data, { atomic: false });
  const invalid = await client.post('/write/invalid/?n=7');
  assert.is(invalid.status, 400);
  assert.equal(await titles(), ['ok-6', 'invalid-7']);
});

test.run();
