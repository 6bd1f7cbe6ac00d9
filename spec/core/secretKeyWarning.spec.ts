/**
 * The development SECRET_KEY warning prints once per process tree: configuring again (the
 * reloader's server child inherits the environment marker) or a later `npm start` step
 * (which sets it) stays quiet.
 */
import { spawnSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { configureSettings, SECRET_KEY_WARNED, settings } from '../../lib/core/conf';

const test = suite('core/conf SECRET_KEY warning');

function captureStderr(fn: () => void): string {
  const write = process.stderr.write.bind(process.stderr);
  let text = '';
  process.stderr.write = ((chunk: string | Uint8Array) => {
    text += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  try {
    fn();
  } finally {
    process.stderr.write = write;
  }
  return text;
}

test('development key :: warned once, then the marker keeps it quiet', () => {
  const saved = { ...settings };
  const env = { SECRET_KEY: process.env.SECRET_KEY, QUIET: process.env.API_FRAMEWORK_QUIET, WARNED: process.env[SECRET_KEY_WARNED] };
  delete process.env.SECRET_KEY;
  delete process.env.API_FRAMEWORK_QUIET;
  delete process.env[SECRET_KEY_WARNED];
  try {
    const output = captureStderr(() => {
      configureSettings({ DEBUG: true, SECRET_KEY: '' });
      configureSettings({ DEBUG: true, SECRET_KEY: '' });
    });
    assert.is(output, 'warning: SECRET_KEY is not set; using an insecure development key (DEBUG only).\n');
    assert.is(process.env[SECRET_KEY_WARNED], '1');
  } finally {
    for (const [name, value] of [['SECRET_KEY', env.SECRET_KEY], ['API_FRAMEWORK_QUIET', env.QUIET], [SECRET_KEY_WARNED, env.WARNED]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    configureSettings(saved, 'spec/settings');
  }
});

test('child process :: inherits the marker and prints nothing', () => {
  const script = "require('./lib/core/conf').configureSettings({ DEBUG: true, SECRET_KEY: '' });";
  const run = (extra: Record<string, string>) => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
    delete env.SECRET_KEY;
    delete env.API_FRAMEWORK_QUIET;
    if (!(SECRET_KEY_WARNED in extra)) delete env[SECRET_KEY_WARNED];
    return spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], { env, encoding: 'utf8' }).stderr;
  };
  assert.match(run({}), /SECRET_KEY is not set/);
  assert.is(run({ [SECRET_KEY_WARNED]: '1' }), '');
});

test.run();
