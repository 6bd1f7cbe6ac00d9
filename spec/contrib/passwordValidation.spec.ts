/**
 * AUTH_PASSWORD_VALIDATORS: the host framework's four validators with its messages and
 * options (Django's dotted names accepted), its list of 20,000 common passwords, and
 * createsuperuser / changepassword applying them (createsuperuser offers the bypass).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { useTestDatabase } from '../../lib/core/db/testing';
import { callCommand } from '../../lib/core/management';
import { User } from '../../contrib/auth/models';
import {
  CommonPasswordValidator,
  MinimumLengthValidator,
  NumericPasswordValidator,
  PasswordValidationError,
  UserAttributeSimilarityValidator,
  getPasswordValidators,
  passwordValidatorsHelpTexts,
  quickRatio,
  validatePassword,
} from '../../contrib/auth/passwordValidation';

const test = suite('contrib/auth password validation');
useTestDatabase(test);

const DJANGO_FOUR = [
  { NAME: 'django.contrib.auth.password_validation.UserAttributeSimilarityValidator' },
  { NAME: 'django.contrib.auth.password_validation.MinimumLengthValidator' },
  { NAME: 'django.contrib.auth.password_validation.CommonPasswordValidator' },
  { NAME: 'django.contrib.auth.password_validation.NumericPasswordValidator' },
];

function messages(password: string, user: object | null = null): string[] {
  try {
    validatePassword(password, user, getPasswordValidators(DJANGO_FOUR));
    return [];
  } catch (error) {
    assert.instance(error, PasswordValidationError);
    return (error as PasswordValidationError).messages;
  }
}

test('validators :: each rule with the host framework messages, collected in order', () => {
  const user = User.build({ username: 'alice_wonder', email: 'dora@example.com', first_name: 'Alice', last_name: 'Liddell' });
  const rows: Array<[string, string[]]> = [
    ['correct horse battery staple', []],
    ['short', ['This password is too short. It must contain at least 8 characters.']],
    ['password', ['This password is too common.']],
    ['  QWERTY12  ', ['This password is too common.']],
    ['12345', ['This password is too short. It must contain at least 8 characters.', 'This password is too common.', 'This password is entirely numeric.']],
    ['90817263544', ['This password is entirely numeric.']],
    ['alicewonder', ['The password is too similar to the username.']],
    ['example.dora', ['The password is too similar to the email address.']],
    ['liddell-A', ['The password is too similar to the last name.']],
  ];
  for (const [password, expected] of rows) assert.equal(messages(password, user), expected, password);
  assert.equal(messages('alicewonder'), [], 'no user: no similarity check');
});

test('validators :: options, help texts, quick_ratio and configuration errors', () => {
  assert.throws(() => new MinimumLengthValidator({ min_length: 1 }).validate(''), /at least 1 character\.$/);
  assert.is(new MinimumLengthValidator({ min_length: 12 }).getHelpText(), 'Your password must contain at least 12 characters.');
  assert.not.throws(() => new UserAttributeSimilarityValidator({ user_attributes: ['email'] }).validate('alicewonder', { username: 'alice_wonder' }));
  assert.throws(() => new UserAttributeSimilarityValidator({ max_similarity: 0.05 }), /max_similarity must be at least 0\.1/);
  assert.is(new CommonPasswordValidator().passwords.size, 19727); // as Python reads the list
  assert.not.throws(() => new NumericPasswordValidator().validate('1234a'));
  assert.is(quickRatio('alicewonder', 'alice_wonder').toFixed(6), (22 / 23).toFixed(6)); // Python: 0.9565217391304348
  assert.equal(passwordValidatorsHelpTexts(getPasswordValidators(DJANGO_FOUR)), [
    'Your password can’t be too similar to your other personal information.',
    'Your password must contain at least 8 characters.',
    'Your password can’t be a commonly used password.',
    'Your password can’t be entirely numeric.',
  ]);
  assert.throws(
    () => getPasswordValidators([{ NAME: 'django.contrib.auth.password_validation.Nope' }]),
    /The module in NAME could not be imported: django\.contrib\.auth\.password_validation\.Nope\. Check your AUTH_PASSWORD_VALIDATORS setting\./,
  );
  overrideSettings({ AUTH_PASSWORD_VALIDATORS: [{ NAME: 'contrib.auth.passwordValidation.MinimumLengthValidator', OPTIONS: { min_length: 20 } }] }, () => {
    assert.throws(() => validatePassword('nineteen-characters'), /at least 20 characters/);
  });
  assert.not.throws(() => validatePassword('x'), 'no AUTH_PASSWORD_VALIDATORS: nothing to check');
});

test('createsuperuser :: refused passwords are explained; N asks again, y bypasses', async () => {
  await overrideSettings({ AUTH_PASSWORD_VALIDATORS: DJANGO_FOUR }, async () => {
    const again = await callCommand('createsuperuser', ['--username', 'root1', '--email', 'root1@example.com'], { stdin: '123\n123\n\nLong and unusual 77\nLong and unusual 77\n' });
    assert.is(again.exitCode, 0, again.stderr);
    assert.is(again.stderr, 'This password is too short. It must contain at least 8 characters.\nThis password is too common.\nThis password is entirely numeric.\n');
    assert.is(again.stdout, 'Password: Password (again): Bypass password validation and create user anyway? [y/N]: Password: Password (again): Superuser created successfully.\n');
    assert.ok(await (await User.objects.get({ username: 'root1' })).checkPassword('Long and unusual 77'));

    const bypass = await callCommand('createsuperuser', ['--username', 'root2', '--email', 'root2@example.com'], { stdin: 'root2root\nroot2root\ny\n' });
    assert.is(bypass.exitCode, 0, bypass.stderr);
    assert.is(bypass.stderr, 'The password is too similar to the username.\n');
    assert.ok(await (await User.objects.get({ username: 'root2' })).checkPassword('root2root'));
  });
});

test('changepassword :: three refused passwords abort; a good one is saved', async () => {
  await User.objects.createUser('erin', 'erin@example.com', 'Old password 1');
  await overrideSettings({ AUTH_PASSWORD_VALIDATORS: DJANGO_FOUR }, async () => {
    const refused = await callCommand('changepassword', ['erin'], { stdin: 'password\npassword\n12345678\n12345678\nerin\nerin\n' });
    assert.is(refused.exitCode, 1);
    assert.is(
      refused.stderr,
      'This password is too common.\nThis password is too common.\nThis password is entirely numeric.\n' +
        'The password is too similar to the username.\nThis password is too short. It must contain at least 8 characters.\nThis password is too common.\n' +
        "CommandError: Aborting password change for user 'erin' after 3 attempts\n",
    );
    const changed = await callCommand('changepassword', ['erin'], { stdin: 'password\npassword\nA much better one 42\nA much better one 42\n' });
    assert.is(changed.exitCode, 0, changed.stderr);
    assert.ok(await (await User.objects.get({ username: 'erin' })).checkPassword('A much better one 42'));
  });
});

test.run();
