/**
 * Integers outside the column's range (a 309-digit id): 404 on a path lookup, a validation
 * error naming the limit in a body (ModelSerializer's integer fields carry the column's
 * min/max, as the original's do), and a filter value that matches nothing; never a 500.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { useTestDatabase } from '../../lib/core/db/testing';
import { ListCreateAPIView, RetrieveUpdateDestroyAPIView } from '../../lib/generics';
import { ModelSerializer } from '../../lib/serializers';
import { AllowAny } from '../../lib/permissions';
import { callView, jsonOnlyApiSettings, useSettings } from '../helpers';
import { BadOwner, BadRow } from './models';

const test = suite('badInput integer range');
useTestDatabase(test, { models: [BadOwner, BadRow] });
useSettings(test, () => ({ API_FRAMEWORK: jsonOnlyApiSettings(), TIME_ZONE: 'UTC', USE_TZ: true }));

const HUGE = '9'.repeat(309);

class RowSerializer extends ModelSerializer {
  static Meta = { model: BadRow, fields: ['id', 'title', 'n', 'day', 'at', 'owner'] };
}

class RowList extends ListCreateAPIView {
  override queryset = BadRow.objects.orderBy('id');
  override serializerClass = RowSerializer;
  override permissionClasses = [AllowAny];
}

class RowDetail extends RetrieveUpdateDestroyAPIView {
  override queryset = BadRow.objects.all();
  override serializerClass = RowSerializer;
  override permissionClasses = [AllowAny];
}

const BODY = { title: 't', day: '2020-01-01', at: '2020-01-01T00:00:00Z' };

async function post(body: Record<string, unknown>): Promise<{ status: number; text: string }> {
  const response = await callView(RowList.asView(), {
    method: 'POST', url: '/rows/', body: JSON.stringify(body), headers: { 'content-type': 'application/json' },
  });
  return { status: response.status, text: response.text };
}

test.before(async () => {
  await BadRow.objects.create({ ...BODY, n: 1 });
});

test('path :: an id outside the column range is 404 for GET, PUT and DELETE', async () => {
  for (const id of [HUGE, `-${HUGE}`, '2147483648', '99999999999999999999']) {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await callView(RowDetail.asView(), {
        method, url: `/rows/${id}/`, body: method === 'PUT' ? JSON.stringify(BODY) : undefined, headers: { 'content-type': 'application/json' },
      }, { pk: id });
      assert.is(response.status, 404, `${method} ${id}`);
      assert.is(response.text, '{"detail":"Not found."}');
    }
  }
  assert.is(await BadRow.objects.count(), 1, 'nothing deleted');
});

test('body :: integer fields carry the column range; beyond it is a validation error', async () => {
  const n = new RowSerializer().fields.get('n') as unknown as { maxValue: number | null; minValue: number | null };
  assert.is(n.maxValue, 2147483647);
  assert.is(n.minValue, -2147483648);
  const cases: Array<[unknown, string]> = [
    [HUGE, '{"n":["Ensure this value is less than or equal to 2147483647."]}'],
    [`-${HUGE}`, '{"n":["Ensure this value is greater than or equal to -2147483648."]}'],
    [2147483648, '{"n":["Ensure this value is less than or equal to 2147483647."]}'],
    [-2147483649, '{"n":["Ensure this value is greater than or equal to -2147483648."]}'],
    [1e300, '{"n":["Ensure this value is less than or equal to 2147483647."]}'],
  ];
  for (const [n, expected] of cases) {
    const answer = await post({ ...BODY, n });
    assert.is(answer.status, 400, String(n));
    assert.is(answer.text, expected, String(n));
  }
  const owner = await post({ ...BODY, owner: HUGE });
  assert.is(owner.status, 400);
  assert.is(owner.text, `{"owner":["Invalid pk \\"${HUGE}\\" - object does not exist."]}`);
  assert.is((await post({ ...BODY, n: 2147483647 })).status, 201, 'the maximum itself is stored');
  assert.is(await BadRow.objects.filter({ n: 2147483647 }).count(), 1);
  assert.is(await BadRow.objects.count(), 2, 'only the valid row was created');
});

test.run();
