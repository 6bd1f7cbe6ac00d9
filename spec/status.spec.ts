import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as status from '../lib/status';

const test = suite('status');

test('codes :: constants carry their numbers', () => {
  assert.is(status.HTTP_200_OK, 200);
  assert.is(status.HTTP_201_CREATED, 201);
  assert.is(status.HTTP_204_NO_CONTENT, 204);
  assert.is(status.HTTP_404_NOT_FOUND, 404);
  assert.is(status.HTTP_429_TOO_MANY_REQUESTS, 429);
  assert.is(status.HTTP_511_NETWORK_AUTHENTICATION_REQUIRED, 511);
});

test('predicates :: classes of codes, bounds included', () => {
  assert.ok(status.isInformational(100) && status.isInformational(199) && !status.isInformational(200));
  assert.ok(status.isSuccess(200) && status.isSuccess(299) && !status.isSuccess(300) && !status.isSuccess(199));
  assert.ok(status.isRedirect(301) && !status.isRedirect(400));
  assert.ok(status.isClientError(404) && !status.isClientError(500) && !status.isClientError(399));
  assert.ok(status.isServerError(500) && status.isServerError(599) && !status.isServerError(600));
});

test.run();
