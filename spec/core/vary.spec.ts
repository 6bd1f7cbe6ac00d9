import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpResponse, patchVaryHeaders } from '../../lib/core/http';

const test = suite('core/vary');

// [existing Vary or undefined, new headers, expected Vary]: Django 3.2's patch_vary_headers.
const CASES: Array<[string | undefined, string | string[], string]> = [
  [undefined, 'Accept', 'Accept'],
  [undefined, ['Cookie'], 'Cookie'],
  ['Accept', ['Cookie'], 'Accept, Cookie'],
  ['Accept, Cookie', ['cookie'], 'Accept, Cookie'],
  ['Accept,Cookie', 'Accept-Language, accept', 'Accept, Cookie, Accept-Language'],
  [undefined, 'Accept, Cookie', 'Accept, Cookie'],
  ['*', ['Cookie'], '*'],
  ['Cookie', ['*'], '*'],
  ['Accept', '*', '*'],
  ['Accept', ['Cookie', 'COOKIE'], 'Accept, Cookie'],
];

test('patchVaryHeaders :: appends new names, keeps order and case, * stands alone', () => {
  for (const [existing, added, expected] of CASES) {
    const response = new HttpResponse('');
    if (existing !== undefined) response.setHeader('Vary', existing);
    patchVaryHeaders(response, added);
    assert.is(response.getHeader('Vary'), expected, `${existing} + ${JSON.stringify(added)}`);
  }
});

test('patchVaryHeaders :: a merge answered again (remembered) is the same, and pairs that would join alike stay apart', () => {
  for (let round = 0; round < 3; round++) {
    for (const [existing, added, expected] of CASES) {
      const response = new HttpResponse('');
      if (existing !== undefined) response.setHeader('Vary', existing);
      patchVaryHeaders(response, added);
      assert.is(response.getHeader('Vary'), expected, `round ${round}: ${existing} + ${JSON.stringify(added)}`);
    }
  }
  const pairs: Array<[string | undefined, string, string]> = [
    ['abc', 'X', 'abc, X'],
    [undefined, '3:abcX', '3:abcX'],
    [undefined, '-X', '-X'],
    ['', 'X', 'X'],
    ['a', 'bc', 'a, bc'],
    ['ab', 'c', 'ab, c'],
  ];
  for (let round = 0; round < 2; round++) {
    for (const [existing, added, expected] of pairs) {
      const response = new HttpResponse('');
      if (existing !== undefined) response.setHeader('Vary', existing);
      patchVaryHeaders(response, [added]);
      assert.is(response.getHeader('Vary'), expected, `round ${round}: ${existing} + ${added}`);
    }
  }
});

test.run();
