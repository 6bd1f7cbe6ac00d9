import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { PROJECT_ROOT, overrideSettings } from '../../lib/core/conf';
import {
  BaseCommand,
  CommandError,
  CommandParser,
  CommandParseError,
  callCommand,
  getCommands,
  type CommandOptions,
} from '../../lib/core/management';

const management = suite('management');

const TS_NODE = require.resolve('ts-node/register/transpile-only');

function manage(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['-r', TS_NODE, 'manage.ts', ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, SETTINGS_MODULE: 'spec/core/fixtures/settings', API_FRAMEWORK_QUIET: '1' },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

management('CommandParser :: options are camelCased, typed and defaulted', () => {
  const parser = new CommandParser('manage.ts test');
  parser.addArgument({ name: 'fake-initial', type: 'boolean' });
  parser.addArgument({ name: 'database', type: 'string', default: 'default' });
  parser.addArgument({ name: 'count', type: 'number', short: 'n', default: 1 });
  parser.addArgument({ name: 'app_label', positional: true, required: false });
  parser.addArgument({ name: 'names', positional: true, multiple: true, required: false });
  assert.equal(parser.parse(['--fake-initial', '-n', '3', 'auth', 'x', 'y']), {
    fakeInitial: true,
    database: 'default',
    count: 3,
    appLabel: 'auth',
    names: ['x', 'y'],
  });
  assert.equal(parser.parse([]), { fakeInitial: false, database: 'default', count: 1, appLabel: undefined, names: [] });
  assert.throws(() => parser.parse(['--count', 'lots']), (e: unknown) => e instanceof CommandParseError && /invalid int value: 'lots'/.test(e.message));
  assert.throws(() => parser.parse(['--nope']), (e: unknown) => e instanceof CommandParseError && e.message === 'unrecognized arguments: --nope');
});

management('CommandParser :: required positionals and extra arguments', () => {
  const parser = new CommandParser('manage.ts drf_create_token');
  parser.addArgument({ name: 'username', positional: true });
  parser.addArgument({ name: 'reset', short: 'r', type: 'boolean' });
  assert.equal(parser.parse(['alice', '-r']), { reset: true, username: 'alice' });
  assert.throws(() => parser.parse([]), /the following arguments are required: username/);
  assert.throws(() => parser.parse(['alice', 'bob']), /unrecognized arguments: bob/);
  assert.match(parser.usage(), /^usage: manage\.ts drf_create_token \[--reset\] username$/);
});

management('registry :: the core commands are listed', () => {
  const commands = getCommands();
  for (const name of ['help', 'runserver', 'serve', 'shell']) {
    assert.ok(commands.has(name), name);
    assert.is(commands.get(name)!.app, 'core');
    const cls = commands.get(name)!.load();
    assert.ok(cls.prototype instanceof BaseCommand);
    assert.ok(cls.help.length > 0);
  }
});

management("registry :: an app's commands folder ('./commands') lists each file as a command of the app", () => {
  const installed = ['contrib.auth', 'contrib.sessions', 'contrib.authtoken', 'contrib.browsable'];
  const commands = overrideSettings({ INSTALLED_APPS: installed }, () => getCommands());
  const expected: Array<[string, string]> = [
    ['createsuperuser', 'auth'], ['changepassword', 'auth'], ['clearsessions', 'sessions'],
    ['drf_create_token', 'authtoken'], ['generateschema', 'api_framework'], ['collectstatic', 'api_framework'],
  ];
  for (const [name, app] of expected) {
    assert.is(commands.get(name)?.app, app, name);
    const cls = commands.get(name)!.load();
    assert.ok(cls.prototype instanceof BaseCommand, name);
  }
});

management('callCommand :: help lists commands grouped by app', async () => {
  const result = await callCommand('help');
  assert.is(result.exitCode, 0);
  assert.match(result.stdout, /Type 'manage\.ts help <subcommand>' for help on a specific subcommand\./);
  assert.match(result.stdout, /\[core\]\n( {4}\w+\n)* {4}runserver\n/);
});

management('callCommand :: help <cmd> shows its arguments; unknown commands fail', async () => {
  const runserver = await callCommand('help', ['runserver']);
  assert.is(runserver.exitCode, 0);
  assert.match(runserver.stdout, /usage: manage\.ts runserver .*\[--noreload\] \[--skip-checks\] \[addrport\]/);
  assert.match(runserver.stdout, /--noreload\s+Tells the server to NOT use the auto-reloader\./);
  const unknown = await callCommand('help', ['frobnicate']);
  assert.is(unknown.exitCode, 1);
  assert.is(unknown.stderr, "CommandError: Unknown command: 'frobnicate'. Type 'manage.ts help' for usage.\n");
  const direct = await callCommand('frobnicate');
  assert.is(direct.exitCode, 1);
  assert.match(direct.stderr, /Unknown command: 'frobnicate'\. Type 'manage\.ts help' for usage\.\n$/);
});

management('callCommand :: bad arguments print the usage and exit 1', async () => {
  const result = await callCommand('runserver', ['--bogus']);
  assert.is(result.exitCode, 1);
  assert.match(result.stderr, /^usage: manage\.ts runserver /);
  assert.match(result.stderr, /manage\.ts runserver: error: unrecognized arguments: --bogus\n$/);
});

management('callCommand :: CommandError is printed, exit 1', async () => {
  const result = await callCommand('runserver', ['not-a-port', '--noreload']);
  assert.is(result.exitCode, 1);
  assert.is(result.stderr, 'CommandError: "not-a-port" is not a valid port number or address:port pair.\n');
  const workers = await callCommand('serve', ['--workers', '0']);
  assert.is(workers.exitCode, 1);
  assert.is(workers.stderr, 'CommandError: --workers must be a positive integer.\n');
});

management('BaseCommand :: handle receives parsed options; output goes to the given streams', async () => {
  class Greet extends BaseCommand {
    static override help = 'Greets.';
    override addArguments(parser: CommandParser): void {
      parser.addArgument({ name: 'name', positional: true });
      parser.addArgument({ name: 'shout', type: 'boolean' });
    }
    override handle(options: CommandOptions): void {
      if (options.name === 'nobody') throw new CommandError('Nobody to greet.');
      const text = `Hello ${options.name}`;
      this.stdout.write(`${options.shout ? text.toUpperCase() : text}\n`);
    }
  }
  let out = '';
  const command = new Greet({ stdout: { write: (t: string) => (out += t) } });
  const parser = command.createParser('manage.ts greet');
  await command.handle(parser.parse(['ann', '--shout', '-v', '2']));
  assert.is(out, 'HELLO ANN\n');
  assert.throws(() => command.handle(parser.parse(['nobody'])), (e: unknown) => e instanceof CommandError && e.returnCode === 1);
});

management('shell -c :: runs code with the project in scope', async () => {
  const result = await overrideSettings({ INSTALLED_APPS: [] }, () =>
    callCommand('shell', ['-c', "print(typeof settings.DEBUG, reverse('ping'), apps.getAppConfigs().length)"]),
  );
  assert.is(result.exitCode, 0, result.stderr);
  assert.is(result.stdout, 'boolean /ping/ 0\n');
  const failing = await overrideSettings({ INSTALLED_APPS: [] }, () => callCommand('shell', ['-c', 'throw new Error("from the shell")']));
  assert.is(failing.exitCode, 1);
  assert.match(failing.stderr, /Error: from the shell/);
});

management('manage.ts :: unknown command exits 1 with the message', () => {
  const result = manage('frobnicate');
  assert.is(result.status, 1);
  assert.is(result.stderr, "Unknown command: 'frobnicate'. Type 'manage.ts help' for usage.\n");
});

management('manage.ts :: help lists the core commands and exits 0', () => {
  const result = manage('help');
  assert.is(result.status, 0, result.stderr);
  assert.match(result.stdout, /\[core\]/);
  assert.match(result.stdout, / {4}serve\n/);
  assert.match(result.stdout, / {4}shell\n/);
});

management.run();
