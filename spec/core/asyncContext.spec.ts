/**
 * The shared async context: the language and the database values live in one store, nested
 * contexts keep what they do not replace, and the storage is disabled (no process-wide promise
 * hooks) once no context is under way.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { contextsRunning, currentContext, runInContext } from '../../lib/core/asyncContext';
import { clsNamespace } from '../../lib/core/db/clsNamespace';
import { activate, getLanguage, gettext, runWithLanguage } from '../../lib/core/i18n';

const test = suite('core/asyncContext');
let restore: () => void;
test.before(() => {
  restore = overrideSettings.enter({ LANGUAGE_CODE: 'en-us', USE_I18N: true, LANGUAGES: undefined });
});
test.after(() => restore());

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('no context outside runInContext; the storage is released after a sync callback', () => {
  assert.is(currentContext(), undefined);
  const seen = runInContext({ language: null, values: new Map([['k', 1]]) }, () => {
    assert.is(contextsRunning(), 1);
    return currentContext()?.values?.get('k');
  });
  assert.is(seen, 1);
  assert.is(contextsRunning(), 0);
  assert.is(currentContext(), undefined);
});

test('an async callback keeps its context across awaits until its promise settles', async () => {
  const pending = runInContext({ language: null, values: new Map([['k', 'v']]) }, async () => {
    await tick();
    await tick();
    return clsNamespace.get('k');
  });
  assert.is(contextsRunning(), 1);
  assert.is(await pending, 'v');
  await tick();
  assert.is(contextsRunning(), 0);
  assert.is(clsNamespace.get('k'), undefined);
});

test('a failing callback releases the storage too', async () => {
  assert.throws(() => runInContext({ language: null, values: null }, () => {
    throw new Error('sync');
  }), /sync/);
  const failing = runInContext({ language: null, values: null }, async () => {
    await tick();
    throw new Error('async');
  });
  try {
    await failing;
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.match((error as Error).message, 'async');
  }
  await tick();
  assert.is(contextsRunning(), 0);
});

test('a language run inside a database context keeps its values (the transaction)', async () => {
  const language = await clsNamespace.runAndReturn(async (values) => {
    values.set('transaction', 'T1');
    return runWithLanguage('de', async () => {
      await tick();
      return [getLanguage(), clsNamespace.get('transaction'), gettext('Not found.')];
    });
  });
  assert.equal(language, ['de', 'T1', 'Nicht gefunden.']);
});

test('a database context inside a language run keeps the language; activate() there reaches the run', async () => {
  const seen = await runWithLanguage('fr', async () => {
    const inner = await clsNamespace.runAndReturn(async (values) => {
      values.set('transaction', 'T2');
      await tick();
      const before = getLanguage();
      activate('es');
      return [before, clsNamespace.get('transaction')];
    });
    // The child copied the values: the outer context has no transaction.
    return [...inner, clsNamespace.get('transaction'), getLanguage()];
  });
  assert.equal(seen, ['fr', 'T2', undefined, 'es']);
  assert.is(getLanguage(), 'en-us');
});

test('concurrent contexts stay apart, and the count drops back to zero', async () => {
  const results = await Promise.all(['de', 'fr', 'es'].map((code, i) =>
    runWithLanguage(code, async () => {
      for (let n = 0; n <= i; n++) await tick();
      return getLanguage();
    })));
  assert.equal(results, ['de', 'fr', 'es']);
  await tick();
  assert.is(contextsRunning(), 0);
});

test('bind() runs a function later in the context it was bound in', async () => {
  const bound = clsNamespace.runAndReturn((values) => {
    values.set('k', 'bound');
    return clsNamespace.bind(() => clsNamespace.get('k'));
  });
  await tick();
  assert.is(clsNamespace.get('k'), undefined);
  assert.is(bound(), 'bound');
  assert.is(contextsRunning(), 0);
});

test.run();
