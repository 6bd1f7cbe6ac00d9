/**
 * Signing: byte-compatibility with Django 3.2 (vectors generated with Django 3.2.25 and
 * SECRET_KEY 'test-secret-key-not-for-production-0123456789'), tampering and expiry.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import {
  BadSignature,
  InvalidAlgorithm,
  SignatureExpired,
  Signer,
  TimestampSigner,
  b64Decode,
  b64Encode,
  base62Decode,
  base62Encode,
  constantTimeCompare,
  dumps,
  getRandomString,
  loads,
  saltedHmac,
} from '../../lib/core/signing';

const SECRET = 'test-secret-key-not-for-production-0123456789';
const T0 = 1700000000500; // ms; the vectors were made at time.time() == 1700000000.5
const at = (ms: number) => () => ms;

let restore: () => void;
test.before(() => {
  restore = overrideSettings.enter({ SECRET_KEY: SECRET });
});
test.after(() => restore());

test('saltedHmac :: matches Django sha1, sha256 and explicit secret', () => {
  assert.is(saltedHmac('salt', 'value').digest('hex'), 'c57d6c69863a43dbc1a5d988b0c0bcf31d36bfb3');
  assert.is(
    saltedHmac('salt', 'value', undefined, 'sha256').digest('hex'),
    '94c86407aee78c78bf36de3b449f6c6716a844c4c5558180443e1038d86f89a5',
  );
  assert.is(saltedHmac('salt', 'value', 'other').digest('hex'), '3ec5b44d636567857760c384646ef734146d6e4f');
});

test('saltedHmac :: unknown algorithm', () => {
  assert.throws(() => saltedHmac('s', 'v', undefined, 'nope'), (e: unknown) => e instanceof InvalidAlgorithm);
});

test('constantTimeCompare :: equal, different, different lengths', () => {
  assert.ok(constantTimeCompare('abc', 'abc'));
  assert.ok(constantTimeCompare(Buffer.from('abc'), 'abc'));
  assert.not.ok(constantTimeCompare('abc', 'abd'));
  assert.not.ok(constantTimeCompare('abc', 'abcd'));
  assert.not.ok(constantTimeCompare('', 'a'));
  assert.ok(constantTimeCompare('', ''));
});

test('getRandomString :: length and alphabet', () => {
  const s = getRandomString(64, 'ab');
  assert.is(s.length, 64);
  assert.ok(/^[ab]+$/.test(s));
  assert.is(getRandomString(0), '');
  assert.ok(/^[A-Za-z0-9]{32}$/.test(getRandomString(32)));
  assert.is.not(getRandomString(32), getRandomString(32));
  assert.throws(() => getRandomString(-1));
  assert.throws(() => getRandomString(3, ''));
});

test('base64 :: url-safe, unpadded, round trip and bad input', () => {
  assert.is(b64Encode(Buffer.from([0xfb, 0xff])), '-_8');
  assert.equal(b64Decode('-_8'), Buffer.from([0xfb, 0xff]));
  assert.equal(b64Decode('-_8='), Buffer.from([0xfb, 0xff]));
  assert.throws(() => b64Decode('a+b/'), (e: unknown) => e instanceof BadSignature);
});

test('base62 :: Django values', () => {
  assert.is(base62Encode(1700000000), '1r31eq');
  assert.is(base62Decode('1r31eq'), 1700000000);
  assert.is(base62Encode(0), '0');
  assert.is(base62Encode(-61), '-z');
  assert.is(base62Decode('-z'), -61);
  assert.throws(() => base62Decode('a!'), (e: unknown) => e instanceof BadSignature);
  assert.throws(() => base62Decode(''), (e: unknown) => e instanceof BadSignature);
});

test('Signer :: Django vectors (sha256 default, salt, sha1, separator, unicode)', () => {
  assert.is(new Signer().sign('hello'), 'hello:8gRvXFU9MKiDxVDWtiTReHXbEsphwlEbOPYnoLnoAEo');
  assert.is(new Signer({ salt: 'extra' }).sign('hello'), 'hello:Rjz8c4KrZMrauXuP-BkpXL3AfrYIw0YZic50-kr83J0');
  assert.is(new Signer({ algorithm: 'sha1' }).sign('hello'), 'hello:Q6ADY0uhShAQ4aapEEICw0rA47k');
  assert.is(new Signer({ sep: '/' }).sign('héllo ✓'), 'héllo ✓/JKJYpYcZH4Ue2SdV9TThauMwCv_M1-ObZrV746bTwYM');
});

test('Signer :: unsign accepts current and legacy sha1 signatures', () => {
  const signer = new Signer();
  assert.is(signer.unsign('hello:8gRvXFU9MKiDxVDWtiTReHXbEsphwlEbOPYnoLnoAEo'), 'hello');
  assert.is(signer.unsign('hello:Q6ADY0uhShAQ4aapEEICw0rA47k'), 'hello');
  assert.is(signer.unsign(signer.sign('a:b:c')), 'a:b:c');
});

test('Signer :: tampering, missing separator, other key or salt', () => {
  const signed = new Signer().sign('hello');
  const bad = (fn: () => unknown) => assert.throws(fn, (e: unknown) => e instanceof BadSignature);
  bad(() => new Signer().unsign(signed.replace('hello', 'hellO')));
  bad(() => new Signer().unsign(`${signed}x`));
  bad(() => new Signer().unsign('hello'));
  bad(() => new Signer({ key: 'other' }).unsign(signed));
  bad(() => new Signer({ salt: 'other' }).unsign(signed));
  assert.throws(() => new Signer().unsign('hello'), /No ":" found in value/);
});

test('Signer :: unsafe separators rejected', () => {
  for (const sep of ['', 'a', '-', '_', '=', '0']) assert.throws(() => new Signer({ sep }), /Unsafe Signer separator/);
});

test('Signer :: key read from settings at call time', () => {
  const signer = new Signer();
  const signed = signer.sign('v');
  overrideSettings({ SECRET_KEY: 'rotated' }, () => {
    assert.throws(() => signer.unsign(signed), (e: unknown) => e instanceof BadSignature);
  });
  assert.is(signer.unsign(signed), 'v');
});

test('TimestampSigner :: Django vector and maxAge', () => {
  const signer = new TimestampSigner();
  signer.timer = at(T0);
  const signed = signer.sign('hello');
  assert.is(signed, 'hello:1r31eq:QPQRQkmiR_ibnFOuXh1LmzobGd-AdNbDsQvqv3q13MQ');
  signer.timer = at(T0 + 10_000);
  assert.is(signer.unsign(signed), 'hello');
  assert.is(signer.unsign(signed, 20), 'hello');
  assert.throws(() => signer.unsign(signed, 5), (e: unknown) => e instanceof SignatureExpired);
  assert.throws(() => signer.unsign(signed, 5), /Signature age 10\.5 > 5 seconds/);
  // A plain Signer's signature is not a timestamped one.
  assert.throws(() => signer.unsign(new Signer({ salt: signer.salt }).sign('x')), (e: unknown) => e instanceof BadSignature);
});

test('dumps :: Django vectors (ASCII-escaped JSON, compression, key and salt)', () => {
  assert.is(
    dumps({ a: 1, b: ['x', 'é', null, true, '\x7f'] }, { timer: at(T0) }),
    'eyJhIjoxLCJiIjpbIngiLCJcdTAwZTkiLG51bGwsdHJ1ZSwiXHUwMDdmIl19:1r31eq:FMFXdrZs6kU1G_YIMjowxFgjo_-4vuvmS8Ie8yshnlE',
  );
  assert.is(dumps([1, 2], { salt: 's', key: 'k', timer: at(T0) }), 'WzEsMl0:1r31eq:pcIyzbK_9EjZPlR9QVF13ibWQRock6VMlPvEHE5b8Pk');
  const long = 'a'.repeat(67);
  const packed = dumps(long, { compress: true, timer: at(T0) });
  assert.ok(packed.startsWith('.'));
  assert.is(loads(packed), long);
  assert.not.ok(dumps('ab', { compress: true }).startsWith('.'), 'incompressible data stays plain');
});

test('loads :: reads values signed by Django, including compressed ones', () => {
  assert.equal(
    loads('eyJhIjoxLCJiIjpbIngiLCJcdTAwZTkiLG51bGwsdHJ1ZSwiXHUwMDdmIl19:1r31eq:FMFXdrZs6kU1G_YIMjowxFgjo_-4vuvmS8Ie8yshnlE'),
    { a: 1, b: ['x', 'é', null, true, '\x7f'] },
  );
  assert.is(loads('.eJxTSqQcKAEAgkcZqA:1r31eq:QbtYTvzszSu2jSbwNPPdUwcCuXZByGsBWQL1v09kO_s'), 'a'.repeat(67));
  assert.equal(loads('WzEsMl0:1r31eq:pcIyzbK_9EjZPlR9QVF13ibWQRock6VMlPvEHE5b8Pk', { key: 'k', salt: 's' }), [1, 2]);
});

test('loads :: wrong salt, expiry, tampered payload', () => {
  const signed = dumps({ x: 1 }, { timer: at(T0) });
  assert.throws(() => loads(signed, { salt: 'other' }), (e: unknown) => e instanceof BadSignature);
  assert.throws(() => loads(signed, { maxAge: 60, timer: at(T0 + 120_000) }), (e: unknown) => e instanceof SignatureExpired);
  assert.equal(loads(signed, { maxAge: 60, timer: at(T0 + 30_000) }), { x: 1 });
  const [payload, ...rest] = signed.split(':');
  assert.throws(() => loads([`${payload}A`, ...rest].join(':')), (e: unknown) => e instanceof BadSignature);
});

test.run();
