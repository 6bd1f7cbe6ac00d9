/**
 * Password hashers: the original's PBKDF2-SHA256 vectors, wrong and unusable passwords,
 * iteration upgrades and hasher identification.
 */
import fs from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import {
  PBKDF2PasswordHasher,
  PBKDF2SHA1PasswordHasher,
  MD5PasswordHasher,
  checkPassword,
  identifyHasher,
  isPasswordUsable,
  makePassword,
  UNUSABLE_PASSWORD_PREFIX,
} from '../../contrib/auth/hashers';

interface Vector {
  password: string;
  salt: string;
  iterations: number;
  encoded: string;
}

const vectors = (JSON.parse(fs.readFileSync('/work/shared/fixtures/pbkdf2_sha256_vectors.json', 'utf8')) as { vectors: Vector[] })
  .vectors;

const Hashers = suite('hashers');

Hashers('pbkdf2_sha256 :: reproduces every vector of the original', async () => {
  assert.ok(vectors.length >= 4);
  const hasher = new PBKDF2PasswordHasher();
  for (const v of vectors) {
    assert.is(await hasher.encode(v.password, v.salt, v.iterations), v.encoded, v.password);
  }
});

Hashers('pbkdf2_sha256 :: verifies every vector, refuses wrong passwords', async () => {
  for (const v of vectors) {
    assert.ok(await checkPassword(v.password, v.encoded), v.password);
    assert.not.ok(await checkPassword(`${v.password}x`, v.encoded));
    assert.not.ok(await checkPassword(v.password.toUpperCase() + '!', v.encoded));
  }
});

Hashers('makePassword :: default format, 260000 iterations, 22-character salt', async () => {
  const encoded = await makePassword('s3cret');
  const [algorithm, iterations, salt, hash] = encoded.split('$');
  assert.is(algorithm, 'pbkdf2_sha256');
  assert.is(iterations, '260000');
  assert.match(salt, /^[A-Za-z0-9]{22}$/);
  assert.is(Buffer.from(hash, 'base64').length, 32);
  assert.ok(await checkPassword('s3cret', encoded));
  assert.is.not(await makePassword('s3cret'), encoded, 'a new salt each time');
});

Hashers('makePassword :: explicit salt is deterministic; salt with $ refused', async () => {
  assert.is(await makePassword('password', 'seasalt'), (await new PBKDF2PasswordHasher().encode('password', 'seasalt')));
  try {
    await makePassword('x', 'bad$salt');
    assert.unreachable('should refuse the salt');
  } catch (error) {
    assert.match((error as Error).message, 'salt must be provided and cannot contain $.');
  }
});

Hashers('unusable :: "!" + 40 characters never matches', async () => {
  const encoded = await makePassword(null);
  assert.ok(encoded.startsWith(UNUSABLE_PASSWORD_PREFIX));
  assert.is(encoded.length, 41);
  assert.not.ok(isPasswordUsable(encoded));
  assert.ok(isPasswordUsable(await makePassword('')));
  assert.not.ok(await checkPassword('', encoded));
  assert.not.ok(await checkPassword(encoded, encoded));
});

Hashers('checkPassword :: null password, empty or unknown hashes are false', async () => {
  assert.not.ok(await checkPassword(null, vectors[0].encoded));
  assert.not.ok(await checkPassword('password', ''));
  assert.not.ok(await checkPassword('password', null));
  assert.not.ok(await checkPassword('password', 'argon2$whatever'));
  assert.not.ok(await checkPassword('password', 'pbkdf2_sha256$notanumber'));
});

Hashers('upgrade :: an older iteration count is re-hashed on success only', async () => {
  const old = vectors.find((v) => v.iterations !== 260000) as Vector;
  const calls: string[] = [];
  assert.ok(await checkPassword(old.password, old.encoded, (p) => void calls.push(p)));
  assert.equal(calls, [old.password]);
  assert.not.ok(await checkPassword('wrong', old.encoded, (p) => void calls.push(p)));
  assert.is(calls.length, 1);
  const current = await makePassword('fresh');
  assert.ok(await checkPassword('fresh', current, (p) => void calls.push(p)));
  assert.is(calls.length, 1, 'a current hash is not re-made');
  assert.ok(new PBKDF2PasswordHasher().mustUpdate(old.encoded));
  assert.not.ok(new PBKDF2PasswordHasher().mustUpdate(current));
});

Hashers('upgrade :: a short salt asks for an update', () => {
  assert.ok(new PBKDF2PasswordHasher().mustUpdate(vectors[0].encoded), 'seasalt is under 128 bits');
});

Hashers('identifyHasher :: by prefix, refuses unconfigured algorithms', () => {
  assert.is(identifyHasher(vectors[0].encoded).algorithm, 'pbkdf2_sha256');
  assert.throws(() => identifyHasher('md5$abc$def'), /Unknown password hashing algorithm 'md5'/);
});

Hashers('PASSWORD_HASHERS :: other hashers verify and get upgraded to the first', async () => {
  await overrideSettings(
    { PASSWORD_HASHERS: ['contrib.auth.hashers.PBKDF2PasswordHasher', 'contrib.auth.hashers.MD5PasswordHasher', 'contrib.auth.hashers.PBKDF2SHA1PasswordHasher'] },
    async () => {
      const md5 = await new MD5PasswordHasher().encode('pw', 'somesalt');
      assert.match(md5, /^md5\$somesalt\$[0-9a-f]{32}$/);
      const calls: string[] = [];
      assert.ok(await checkPassword('pw', md5, (p) => void calls.push(p)));
      assert.equal(calls, ['pw']);
      const sha1 = await new PBKDF2SHA1PasswordHasher().encode('pw', 'abcdefghijklmnopqrstuv', 1000);
      assert.match(sha1, /^pbkdf2_sha1\$1000\$/);
      assert.ok(await checkPassword('pw', sha1));
    },
  );
  assert.throws(() => identifyHasher('md5$a$b'));
});

Hashers('PASSWORD_HASHERS :: the first one hashes new passwords', async () => {
  await overrideSettings({ PASSWORD_HASHERS: ['contrib.auth.hashers.MD5PasswordHasher'] }, async () => {
    const encoded = await makePassword('pw');
    assert.ok(encoded.startsWith('md5$'));
    assert.ok(await checkPassword('pw', encoded));
  });
});

Hashers.run();
