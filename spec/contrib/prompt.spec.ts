/**
 * Interactive answers (contrib/auth/prompt.ts) from a pipe and from a terminal in raw mode,
 * and `createsuperuser` driven through them: the host framework's messages for mismatched and
 * blank passwords, an invalid email, a taken username (asked again), success, and a cancelled
 * session (Ctrl-C, Ctrl-D, input ending) that exits 1 and creates nobody.
 */
import { PassThrough } from 'node:stream';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { User } from '../../contrib/auth/models';
import { Prompter } from '../../contrib/auth/prompt';
import { useTestDatabase } from '../../lib/core/db/testing';
import { callCommand, CommandError } from '../../lib/core/management';

const test = suite('auth prompt');
useTestDatabase(test);

/** A terminal stand-in: a stream that says it is a TTY and records its raw-mode switches. */
class FakeTTY extends PassThrough {
  readonly isTTY = true;
  readonly rawModes: boolean[] = [];

  setRawMode(mode: boolean): this {
    this.rawModes.push(mode);
    return this;
  }
}

function output(): { text: string; write(chunk: string): void } {
  return {
    text: '',
    write(chunk: string) {
      this.text += chunk;
    },
  };
}

async function cancelled(promise: Promise<unknown>): Promise<boolean> {
  try {
    await promise;
    return false;
  } catch (error) {
    assert.instance(error, CommandError);
    assert.is((error as Error).message, 'Operation cancelled.');
    return true;
  }
}

test('pipe :: one answer per line (\\n, \\r\\n, \\r), the last line without a newline, then cancelled', async () => {
  const input = new PassThrough();
  input.end('one\r\ntwo\rthree\n\nlast');
  const out = output();
  const prompter = new Prompter(input, out);
  assert.not.ok(prompter.isTTY);
  assert.is(await prompter.ask('A: '), 'one');
  assert.is(await prompter.ask('B: '), 'two');
  assert.is(await prompter.ask('C: '), 'three');
  assert.is(await prompter.ask('D: '), '');
  assert.is(await prompter.askSecret('E: '), 'last', 'a pipe answers secrets line by line too');
  assert.ok(await cancelled(prompter.ask('F: ')));
  assert.is(out.text, 'A: B: C: D: E: F: ');
  prompter.close();
});

test('pipe :: answers arriving in pieces; a Ctrl-C byte or a stream error cancels', async () => {
  const input = new PassThrough();
  const prompter = new Prompter(input, output());
  const answer = prompter.ask('Name: ');
  input.write('ab');
  input.write('c\nrest');
  assert.is(await answer, 'abc');
  input.write('\u0003');
  assert.ok(await cancelled(prompter.ask('Again: ')));
  const broken = new PassThrough();
  const second = new Prompter(broken, output());
  const pending = second.ask('X: ');
  broken.destroy(new Error('boom'));
  assert.ok(await cancelled(pending));
});

test('terminal :: secrets are read in raw mode, not echoed, with backspace; raw mode is always switched off', async () => {
  const tty = new FakeTTY();
  const out = output();
  const prompter = new Prompter(tty, out);
  assert.ok(prompter.isTTY);
  tty.write('sx\u007fe\bec\u007fcret\rnext\n');
  assert.is(await prompter.askSecret('Password: '), 'secret');
  assert.is(out.text, 'Password: \n', 'only the prompt and the line break are written');
  assert.equal(tty.rawModes, [true, false]);
  assert.is(await prompter.ask('Plain: '), 'next', 'a plain question reads a line');
  tty.write('\u0003');
  assert.ok(await cancelled(prompter.askSecret('Password: ')), 'Ctrl-C');
  tty.write('abc\u0004');
  assert.ok(await cancelled(prompter.askSecret('Password: ')), 'Ctrl-D');
  assert.equal(tty.rawModes, [true, false, true, false, true, false]);
});

test('terminal :: input ending while a secret is asked: what was typed, then cancelled (never endless empty answers)', async () => {
  const tty = new FakeTTY();
  const prompter = new Prompter(tty, output());
  tty.end('typed');
  assert.is(await prompter.askSecret('Password: '), 'typed');
  assert.ok(await cancelled(prompter.askSecret('Password (again): ')));
  assert.ok(await cancelled(prompter.askSecret('Password (again): ')));
  assert.equal(tty.rawModes, [true, false, true, false, true, false]);
});

test('createsuperuser :: on a terminal: taken username asked again, invalid email, mismatch, blank, then success', async () => {
  await User.objects.createUser('taken', 'taken@example.com', 'pw');
  // Typed on a terminal: lines for the plain questions, raw characters ending in \r for secrets.
  const input = new FakeTTY();
  input.end('taken\nnew-boss\nnot-an-email\nboss@example.com\nfirst\rsecond\r \r \rs3cret!\rs3cret!\r');
  const result = await callCommand('createsuperuser', [], { stdin: input });
  assert.is(result.exitCode, 0, result.stderr);
  assert.is(result.stderr, [
    'Error: That username is already taken.',
    'Error: Enter a valid email address.',
    "Error: Your passwords didn't match.",
    "Error: Blank passwords aren't allowed.",
    '',
  ].join('\n'));
  assert.match(result.stdout, /^Username[^:]*: Username[^:]*: Email address: Email address: (Password: \nPassword \(again\): \n){3}Superuser created successfully\.\n$/);
  assert.not.ok(result.stdout.includes('s3cret'), 'passwords are not echoed');
  const boss = await User.objects.get({ username: 'new-boss' });
  assert.ok(boss.is_superuser && boss.is_staff);
  assert.is(boss.email, 'boss@example.com');
  assert.ok(await boss.checkPassword('s3cret!'));
});

test('createsuperuser :: an empty email is allowed (the field may be blank)', async () => {
  const result = await callCommand('createsuperuser', ['--username', 'no-mail'], { stdin: '\npw\npw\n' });
  assert.is(result.exitCode, 0, result.stderr);
  assert.is((await User.objects.get({ username: 'no-mail' })).email, '');
});

test('createsuperuser :: Ctrl-C, Ctrl-D or the end of input cancel: exit 1, nobody created', async () => {
  for (const [label, typed] of [['Ctrl-C', 'pw\r\u0003'], ['Ctrl-D', '\u0004'], ['end of input', '']] as const) {
    const input = new FakeTTY();
    input.end(`quitter\nq@example.com\n${typed}`);
    const result = await callCommand('createsuperuser', [], { stdin: input });
    assert.is(result.exitCode, 1, label);
    assert.match(result.stderr, /Operation cancelled\.\n$/, label);
    assert.not.match(result.stdout, /Superuser created/, label);
  }
  const piped = await callCommand('createsuperuser', ['--username', 'quitter', '--email', 'q@example.com'], { stdin: 'only-once\n' });
  assert.is(piped.exitCode, 1);
  assert.match(piped.stderr, /Operation cancelled\.\n$/);
  assert.not.ok(await User.objects.filter({ username: 'quitter' }).exists());
});

test.run();
