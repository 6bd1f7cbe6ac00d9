/**
 * The tutorial's highlighting: every language and style choice of the original resolves to a
 * highlight.js grammar and a theme, and the stored document escapes everything it shows.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import hljs from 'highlight.js';
import { LANGUAGE_CHOICES, STYLE_CHOICES } from '../../demo/snippets/choices';
import { highlightLanguage, PLAIN_TEXT } from '../../demo/snippets/languages';
import { isKnownStyle, themeCss } from '../../demo/snippets/themes';
import { escapeHtml, highlightDocument } from '../../demo/snippets/highlight';

const test = suite('demo highlight');

test('choices :: the original lists, sorted, with its defaults', () => {
  assert.is(LANGUAGE_CHOICES.length, 546);
  assert.is(STYLE_CHOICES.length, 48);
  const values = LANGUAGE_CHOICES.map(([value]) => value);
  assert.equal(values, [...values].sort());
  assert.ok(values.includes('python'));
  assert.ok(STYLE_CHOICES.some(([value]) => value === 'friendly'));
});

test('languages :: every choice resolves to a registered grammar; known differences mapped', () => {
  for (const [value] of LANGUAGE_CHOICES) {
    const language = highlightLanguage(value);
    assert.ok(language === PLAIN_TEXT || hljs.getLanguage(language), `${value} -> ${language}`);
  }
  assert.is(highlightLanguage('python'), 'python');
  assert.is(highlightLanguage('javascript'), 'javascript');
  assert.is(highlightLanguage('html'), 'xml');
  assert.is(highlightLanguage('objective-c'), 'objectivec');
  assert.is(highlightLanguage('html+php'), 'php-template');
  assert.is(highlightLanguage('css+mako'), 'css');
  assert.is(highlightLanguage('asc'), PLAIN_TEXT);
  assert.is(highlightLanguage('abap'), PLAIN_TEXT);
  const mapped = LANGUAGE_CHOICES.filter(([value]) => highlightLanguage(value) !== PLAIN_TEXT).length;
  assert.ok(mapped > 200, `${mapped} languages highlighted`);
});

test('themes :: every style has CSS, cached; an unknown style falls back to friendly', () => {
  for (const [value] of STYLE_CHOICES) {
    assert.ok(isKnownStyle(value), value);
    assert.match(themeCss(value), /\.hljs\s*\{/);
  }
  assert.is(themeCss('monokai'), themeCss('monokai'));
  assert.match(themeCss('friendly'), /\.hljs\{background:#f0f0f0;color:#000000\}/);
  assert.is(themeCss('no-such-style'), themeCss('friendly'));
});

test('document :: title, theme, line numbers, escaping', () => {
  const html = highlightDocument({ code: 'a = "<script>"\nb = 2', language: 'python', style: 'vs', linenos: true, title: '"x" & <y>' });
  assert.match(html, /^<!DOCTYPE html>\n/);
  assert.ok(html.includes('<title>&quot;x&quot; &amp; &lt;y&gt;</title>'));
  assert.ok(html.includes('<h2>&quot;x&quot; &amp; &lt;y&gt;</h2>'));
  assert.not.ok(html.includes('<script>'));
  assert.ok(html.includes('&lt;script&gt;'));
  assert.ok(html.includes('<pre>1\n2</pre>'));
  assert.ok(html.includes(themeCss('vs')));
  const plain = highlightDocument({ code: 'x', language: 'abap', style: 'friendly', linenos: false, title: '' });
  assert.ok(plain.includes('<title></title>'));
  assert.not.ok(plain.includes('<h2>'));
  assert.not.ok(plain.includes('class="linenos"'));
  assert.ok(plain.includes('<code class="hljs language-plaintext">x\n</code>'));
  assert.is(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#x27;&amp;&#x27;&lt;/a&gt;');
});

test.run();
