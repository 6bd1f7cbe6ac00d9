/**
 * i18n: catalogs, the active language per async context, plural forms, placeholder
 * formatting, Accept-Language parsing and the LocaleMiddleware.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { HttpRequest, HttpResponse } from '../../lib/core/http';
import {
  activate,
  deactivate,
  format,
  getLanguage,
  getLanguageFromRequest,
  getSupportedLanguageVariant,
  gettext,
  gettextLazy,
  ngettext,
  parseAcceptLanguage,
  registerCatalog,
  runWithLanguage,
  toLanguage,
} from '../../lib/core/i18n';
import { builtinCatalogs } from '../../lib/core/locale';
import { LocaleMiddleware } from '../../lib/core/localeMiddleware';

let restore: () => void;
test.before(() => {
  restore = overrideSettings.enter({ LANGUAGE_CODE: 'en-us', USE_I18N: true, LANGUAGES: undefined });
});
test.after(() => {
  deactivate();
  restore();
});

const req = (headers: Record<string, string> = {}) => ({ headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])) });

test('gettext :: English by default, translations when active', () => {
  assert.is(getLanguage(), 'en-us');
  assert.is(gettext('Not found.'), 'Not found.');
  runWithLanguage('de', () => {
    assert.is(gettext('Not found.'), 'Nicht gefunden.');
    assert.is(gettext('Invalid token.'), 'Ungültiger Token.');
    assert.is(gettext('No such message in any catalog.'), 'No such message in any catalog.');
  });
  runWithLanguage('fr', () => assert.is(gettext('This field is required.'), 'Ce champ est obligatoire.'));
  runWithLanguage('es', () => assert.is(gettext('This field is required.'), 'Este campo es obligatorio.'));
});

test('gettext :: regional codes fall back to the generic catalog', () => {
  runWithLanguage('de-AT', () => {
    assert.is(getLanguage(), 'de-at');
    assert.is(gettext('Not found.'), 'Nicht gefunden.');
  });
  runWithLanguage('pt-br', () => assert.is(gettext('Not found.'), 'Not found.'));
});

test('gettext :: USE_I18N=false keeps English', () => {
  overrideSettings({ USE_I18N: false }, () => {
    runWithLanguage('de', () => assert.is(gettext('Not found.'), 'Not found.'));
    assert.is(getLanguageFromRequest(req({ 'Accept-Language': 'de' })), 'en-us');
  });
});

test('runWithLanguage :: isolated between concurrent async contexts', async () => {
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  const seen: string[] = [];
  await Promise.all(
    ['de', 'fr', 'es'].map((lang) =>
      runWithLanguage(lang, async () => {
        await tick();
        await tick();
        seen.push(`${getLanguage()}:${gettext('Invalid page.')}`);
      }),
    ),
  );
  assert.equal(seen.sort(), ['de:Ungültige Seite.', 'es:Página no válida.', 'fr:Page invalide.']);
  assert.is(getLanguage(), 'en-us');
});

test('activate :: inside a context it changes that context only; deactivate restores default', () => {
  runWithLanguage('de', () => {
    activate('fr');
    assert.is(getLanguage(), 'fr');
  });
  assert.is(getLanguage(), 'en-us');
  activate('es');
  assert.is(gettext('Not found.'), 'No encontrado.');
  deactivate();
  assert.is(getLanguage(), 'en-us');
});

test('ngettext :: English and per-language plural rules', () => {
  const one = 'Expected available in {wait} second.';
  const many = 'Expected available in {wait} seconds.';
  assert.is(ngettext(one, many, 1), one);
  assert.is(ngettext(one, many, 0), many);
  assert.is(ngettext(one, many, 5), many);
  runWithLanguage('de', () => {
    assert.is(ngettext(one, many, 1), 'Wieder verfügbar in voraussichtlich {wait} Sekunde.');
    assert.is(ngettext(one, many, 0), 'Wieder verfügbar in voraussichtlich {wait} Sekunden.');
  });
  runWithLanguage('fr', () => {
    assert.is(ngettext(one, many, 0), 'Disponible à nouveau dans {wait} seconde.', 'French uses the singular for 0');
    assert.is(ngettext(one, many, 2), 'Disponible à nouveau dans {wait} secondes.');
  });
  runWithLanguage('es', () => assert.is(ngettext('x', 'xs', 2), 'xs'));
});

test('gettextLazy :: translated when rendered', () => {
  const lazy = gettextLazy('Invalid input.');
  assert.is(String(lazy), 'Invalid input.');
  runWithLanguage('fr', () => {
    assert.is(`${lazy}`, 'Saisie invalide.');
    assert.is(JSON.stringify({ detail: lazy }), '{"detail":"Saisie invalide."}');
  });
});

test('registerCatalog :: projects add and override messages', () => {
  registerCatalog('de', { 'Spec-only message.': 'Nur für den Test.' });
  runWithLanguage('de', () => assert.is(gettext('Spec-only message.'), 'Nur für den Test.'));
  registerCatalog('it_IT', { 'Not found.': 'Non trovato.' });
  runWithLanguage('it-it', () => assert.is(gettext('Not found.'), 'Non trovato.'));
});

test('format :: %(name)s, %(name)d, {name}, {name:X} and escapes', () => {
  assert.is(format('Method "{method}" not allowed.', { method: 'PUT' }), 'Method "PUT" not allowed.');
  assert.is(
    format('Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).', { limit_value: 5, show_value: 7.9 }),
    'Ensure this value has at most 5 characters (it has 7).',
  );
  assert.is(format('Value %(value)r is not a valid choice.', { value: 'x' }), "Value 'x' is not a valid choice.");
  assert.is(format('U+{code_point:X}.', { code_point: 0xd800 }), 'U+D800.');
  assert.is(format('{missing} and %(gone)s', {}), '{missing} and %(gone)s');
  assert.is(format('100%% {{literal}} {a}', { a: null }), '100% {literal} None');
  assert.is(format('%(flag)s', { flag: true }), 'True');
});

test('catalogs :: every language has the same messages and keeps placeholders', () => {
  const placeholders = (text: string) => (text.match(/%\(\w+\)\w|\{[\w:]+\}/g) ?? []).sort();
  const languages = Object.keys(builtinCatalogs);
  assert.equal(languages.sort(), ['de', 'es', 'fr']);
  const reference = Object.keys(builtinCatalogs.de).sort();
  assert.ok(reference.length > 100);
  for (const lang of languages) {
    assert.equal(Object.keys(builtinCatalogs[lang]).sort(), reference, `${lang} covers the same messages`);
    for (const [msgid, translation] of Object.entries(builtinCatalogs[lang])) {
      for (const form of Array.isArray(translation) ? translation : [translation]) {
        assert.ok(form.length > 0);
        assert.equal(placeholders(form), placeholders(msgid), `${lang}: ${msgid}`);
      }
    }
  }
});

test('parseAcceptLanguage :: q-values, order and malformed headers', () => {
  assert.equal(parseAcceptLanguage('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5'), [
    ['fr-ch', 1],
    ['fr', 0.9],
    ['en', 0.8],
    ['de', 0.7],
    ['*', 0.5],
  ]);
  assert.equal(parseAcceptLanguage('de;q=0.5, es'), [['es', 1], ['de', 0.5]]);
  assert.equal(parseAcceptLanguage(''), []);
  assert.equal(parseAcceptLanguage('en;q=2'), []);
  assert.equal(parseAcceptLanguage('not a language!'), []);
});

test('toLanguage and getSupportedLanguageVariant', () => {
  assert.is(toLanguage('en_US'), 'en-us');
  assert.is(getSupportedLanguageVariant('en-us'), 'en');
  assert.is(getSupportedLanguageVariant('DE-at'), 'de');
  assert.is(getSupportedLanguageVariant('it'), null);
  assert.is(getSupportedLanguageVariant('../etc'), null);
  overrideSettings({ LANGUAGES: [['pt-br', 'Brazilian Portuguese'], ['en', 'English']] }, () => {
    assert.is(getSupportedLanguageVariant('pt'), 'pt-br');
    assert.is(getSupportedLanguageVariant('de'), null);
  });
});

test('getLanguageFromRequest :: header, cookie, fallback', () => {
  assert.is(getLanguageFromRequest(req({ 'Accept-Language': 'de-DE,de;q=0.9' })), 'de');
  assert.is(getLanguageFromRequest(req({ 'Accept-Language': 'it, es;q=0.5' })), 'es');
  assert.is(getLanguageFromRequest(req({ 'Accept-Language': 'en-US' })), 'en');
  assert.is(getLanguageFromRequest(req({ 'Accept-Language': 'it' })), 'en', 'LANGUAGE_CODE en-us -> supported en');
  assert.is(getLanguageFromRequest(req({ 'Accept-Language': '*, de' })), 'en');
  assert.is(getLanguageFromRequest(req({ 'Accept-Language': 'de;q=0, fr;q=0.1' })), 'fr');
  assert.is(getLanguageFromRequest(req()), 'en');
  assert.is(getLanguageFromRequest({ headers: { 'accept-language': 'de' }, cookies: { django_language: 'fr' } }), 'fr');
  assert.is(getLanguageFromRequest({ headers: { 'accept-language': 'de' }, cookies: { django_language: 'xx' } }), 'de');
  overrideSettings({ LANGUAGE_CODE: 'fr' }, () => assert.is(getLanguageFromRequest(req({ 'Accept-Language': 'it' })), 'fr'));
  overrideSettings({ LANGUAGE_CODE: 'it' }, () => assert.is(getLanguageFromRequest(req()), 'it'));
});

test('LocaleMiddleware :: activates the language for the view and marks the response', async () => {
  const middleware = new LocaleMiddleware(async (request) => {
    await new Promise((resolve) => setImmediate(resolve));
    const response = new HttpResponse(`${request.languageCode}:${gettext('Not found.')}`);
    response.setHeader('Vary', 'Cookie');
    return response;
  });
  const request = HttpRequest.create({ headers: { 'Accept-Language': 'es-ES,es;q=0.9,en;q=0.5' } });
  const response = await middleware.handle(request);
  assert.is(String(response.content), 'es:No encontrado.');
  assert.is(request.languageCode, 'es');
  assert.is(response.getHeader('Content-Language'), 'es');
  assert.is(response.getHeader('Vary'), 'Cookie, Accept-Language');
  assert.is(getLanguage(), 'en-us', 'the language does not leak out of the request');
});

test('LocaleMiddleware :: keeps an explicit Content-Language and an existing Vary entry', async () => {
  const middleware = new LocaleMiddleware(async () => {
    const response = new HttpResponse('x');
    response.setHeader('Content-Language', 'x-custom');
    response.setHeader('Vary', 'accept-language');
    return response;
  });
  const response = await middleware.handle(HttpRequest.create({ headers: { 'Accept-Language': 'de' } }));
  assert.is(response.getHeader('Content-Language'), 'x-custom');
  assert.is(response.getHeader('Vary'), 'accept-language');
  const plain = await new LocaleMiddleware(async () => new HttpResponse('y')).handle(HttpRequest.create());
  assert.is(plain.getHeader('Content-Language'), 'en');
  assert.is(plain.getHeader('Vary'), 'Accept-Language');
});

test.run();
