import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { settings, overrideSettings, configureSettings, onSettingChanged, ImproperlyConfigured } from '../lib/core/conf';
import { importString } from '../lib/core/modules';

const conf = suite('conf');

conf('overrideSettings :: replaces and restores a key', () => {
  const before = settings.DEBUG;
  overrideSettings({ DEBUG: !before }, () => assert.is(settings.DEBUG, !before));
  assert.is(settings.DEBUG, before);
});

conf('overrideSettings :: restores after an async failure', async () => {
  const before = settings.LANGUAGE_CODE;
  try {
    await overrideSettings({ LANGUAGE_CODE: 'de' }, async () => {
      assert.is(settings.LANGUAGE_CODE, 'de');
      throw new Error('boom');
    });
  } catch (error) {
    assert.is((error as Error).message, 'boom');
  }
  assert.is(settings.LANGUAGE_CODE, before);
});

conf('overrideSettings :: notifies listeners', () => {
  const seen: string[] = [];
  const off = onSettingChanged((key) => seen.push(key));
  overrideSettings({ API_FRAMEWORK: { PAGE_SIZE: 3 } }, () => undefined);
  off();
  assert.equal(seen, ['API_FRAMEWORK', 'API_FRAMEWORK']);
});

conf('configureSettings :: refuses an empty SECRET_KEY outside DEBUG', () => {
  const saved = { ...settings };
  const env = process.env.SECRET_KEY;
  delete process.env.SECRET_KEY;
  try {
    assert.throws(() => configureSettings({ DEBUG: false, SECRET_KEY: '' }), (e: Error) => e instanceof ImproperlyConfigured && /SECRET_KEY/.test(e.message));
  } finally {
    if (env !== undefined) process.env.SECRET_KEY = env;
    configureSettings(saved, 'spec/settings');
  }
});

conf('importString :: resolves a project path and names the setting on failure', () => {
  const fn = importString<typeof configureSettings>('lib.core.conf.configureSettings');
  assert.is(fn, configureSettings);
  assert.throws(() => importString('lib.core.conf.NoSuchThing', 'DEFAULT_RENDERER_CLASSES'), /DEFAULT_RENDERER_CLASSES/);
  assert.throws(() => importString('lib.core.nosuchmodule.X', 'EXCEPTION_HANDLER'), /EXCEPTION_HANDLER/);
});

conf.run();
