/**
 * The tutorial's highlighting: every language and style choice of the original resolves to a
 * highlight.js grammar and a theme, and the stored document escapes everything it shows.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import hljs from 'highlight.js';
import { LANGUAGE_CHOICES, STYLE_CHOICES } from '../../demo/snippets/choices';
import { spawnSync } from 'node:child_process';
import { highlighterFor, highlightLanguage, PLAIN_TEXT } from '../../demo/snippets/languages';
import { LANGUAGE_INDEX } from '../../demo/snippets/languageIndex';
import { languageIndexOf } from '../../demo/snippets/languageIndexOf';
import { PROJECT_ROOT } from '../../lib/core/conf';
import { isKnownStyle, themeCss } from '../../demo/snippets/themes';
import { escapeHtml, highlightDocument } from '../../demo/snippets/highlight';
import { HtmlEmitter } from '../../demo/snippets/htmlEmitter';
import { compiledLanguage, highlightCompiled } from '../../demo/snippets/highlightEngine';
import { readFileSync } from 'node:fs';
import path from 'node:path';

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

test('languages :: the kept index is highlight.js\'s (else run npx ts-node scripts/highlightIndex.ts)', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const version = (require('highlight.js/package.json') as { version: string }).version;
  assert.equal(LANGUAGE_INDEX, languageIndexOf(hljs, version));
  assert.equal(LANGUAGE_INDEX.embeds.xml, ['css', 'javascript']);
  assert.is(LANGUAGE_INDEX.embeds.http, '*');
  assert.is(LANGUAGE_INDEX.aliases.html, 'xml');
});

/** Text with something for most grammars and for the languages they embed. */
const SAMPLE = [
  '#!/usr/bin/env python', '<html><head><style>p { color: red; }</style>', '<script>const a = `x${1}`; // c</script></head>',
  '<?php echo "hi"; ?> {{ value|upper }} {% if x %}<%= @y %>{% endif %}', 'SELECT id, "name" FROM t WHERE n > 1; -- q',
  'def f(x):\n    return x + 1  # c', 'GET /x HTTP/1.1', 'Content-Type: application/json', '', '{"a": [1, 2.5, true, null]}',
  '```python', 'print("x")', '```', '$ ls -la | grep foo', '>>> 1 + 1', '2',
].join('\n');

test('languages :: registered on demand, every choice highlights as with every grammar loaded', () => {
  for (const [value] of LANGUAGE_CHOICES) {
    const language = highlightLanguage(value);
    const lazy = highlighterFor(language).highlight(SAMPLE, { language, ignoreIllegals: true }).value;
    const full = hljs.highlight(SAMPLE, { language, ignoreIllegals: true }).value;
    assert.is(lazy, full, `${value} (${language})`);
  }
});

/** Text that stops most grammars early (illegal lexemes, unclosed strings and comments, nested embeds). */
const BROKEN = [
  `<div class="a'b"><script>if (a < b && c > "d") { /* open`, '<style>a { b: "', '"""x', '<?php /* ', "'\\",
  '@@ -1,2 +1,3 @@', '+<b>&amp;</b>', 'é😀 \t\r\n\u0000',
].join('\n');

test('HtmlEmitter :: the bytes of highlight.js\'s token tree and renderer, for every grammar', () => {
  // Two instances with every grammar: highlight.js's own emitter, and ours.
  const own = hljs.newInstance();
  const ours = hljs.newInstance();
  ours.configure({ __emitter: HtmlEmitter });
  // Errors inside the emitter must fail the test, not fall back to escaped text.
  ours.debugMode();
  for (const name of hljs.listLanguages()) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const definition = require(`highlight.js/lib/languages/${name}`) as Parameters<typeof hljs.registerLanguage>[1];
    own.registerLanguage(name, definition);
    ours.registerLanguage(name, definition);
  }
  let compared = 0;
  const documents: Array<[string, string]> = [['sample', SAMPLE], ['broken', BROKEN], ['empty', '']];
  for (const name of hljs.listLanguages()) {
    for (const [label, code] of documents) {
      for (const ignoreIllegals of [true, false]) {
        const expected = own.highlight(code, { language: name, ignoreIllegals }).value;
        const actual = ours.highlight(code, { language: name, ignoreIllegals }).value;
        assert.is(actual, expected, `${name}, ${label}, ignoreIllegals ${String(ignoreIllegals)}`);
        compared += 1;
      }
    }
  }
  // Detection highlights with every grammar, embedded languages included.
  for (const [label, code] of documents) assert.is(ours.highlightAuto(code).value, own.highlightAuto(code).value, `auto, ${label}`);
  assert.ok(compared > 1000, `${compared} documents compared`);
});

test('HtmlEmitter :: scopes and embedded languages written as highlight.js writes them', () => {
  const emitter = new HtmlEmitter({ classPrefix: 'hljs-' });
  emitter.startScope('title.function.invoked');
  emitter.addText('f<&>"\'');
  emitter.startScope('');
  emitter.addText('');
  emitter.endScope();
  emitter.endScope();
  emitter.endScope();
  const inner = new HtmlEmitter({ classPrefix: 'hljs-' });
  inner.openNode('string');
  inner.addText('s');
  emitter.__addSublanguage(inner, 'css');
  emitter.__addSublanguage(new HtmlEmitter({ classPrefix: 'hljs-' }), '');
  emitter.startScope('meta');
  assert.is(emitter.toHTML(), '<span class="hljs-title function_ invoked__">f&lt;&amp;&gt;&quot;&#x27;</span>'
    + '<span class="language-css"><span class="hljs-string">s</span></span><span class="hljs-meta"></span>');
  emitter.addText('m');
  emitter.finalize();
  emitter.closeNode();
  assert.is(emitter.toHTML(), '<span class="hljs-title function_ invoked__">f&lt;&amp;&gt;&quot;&#x27;</span>'
    + '<span class="language-css"><span class="hljs-string">s</span></span><span class="hljs-meta">m</span>');
});

/** A highlight.js instance with every grammar, writing through `HtmlEmitter` (as the demo's own). */
function instanceWithEveryGrammar(): typeof hljs {
  const api = hljs.newInstance();
  api.configure({ __emitter: HtmlEmitter });
  for (const name of hljs.listLanguages()) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    api.registerLanguage(name, require(`highlight.js/lib/languages/${name}`) as Parameters<typeof hljs.registerLanguage>[1]);
  }
  return api;
}

/** Python as the benchmark posts it: strings, escapes, decorators-free classes, numbers, keywords. */
const PYTHON = [
  '# snippet 0: generated', 'import math', '', 'def compute_0(values, scale=1):', '    """Doc."""', '    total = 0x1F + 1_000 + 2.5e-3j',
  '    for index, value in enumerate(values):', '        if value % 2 == 0 and not None:', '            total += value * scale',
  '        else:', "            total -= math.sqrt(abs(value)) + f'{index!r:>3}' + rb'\\x'", '    return {"tag": "<b>&amp;</b>"}',
  '', '@decorator(1)', 'class Thing0(object):', '    def __repr__(self) -> str:', '        return "Thing0(%r)" % (self.name,)',
  '>>> x.print(1)', 'async def f(): await g()', 'lambda: ...',
].join('\n');

test('highlightEngine :: the same bytes as highlight.js, for every grammar it supports', () => {
  const reference = instanceWithEveryGrammar();
  const engine = instanceWithEveryGrammar();
  // The project's own files give every grammar real text of several kinds (the start of each is enough).
  const files = ['demo/snippets/htmlEmitter.ts', 'README.md', 'package.json', 'contrib/browsable/static/api_framework/css/browsable.css',
    'contrib/admin/templates/admin/base.html'];
  const documents: Array<[string, string]> = [['sample', SAMPLE], ['broken', BROKEN], ['empty', ''], ['python', PYTHON],
    ...files.map((file): [string, string] => [file, readFileSync(path.join(PROJECT_ROOT, file), 'utf8').slice(0, 6000)])];
  let supported = 0;
  for (const name of hljs.listLanguages()) {
    if (compiledLanguage(engine, name) === null) continue;
    supported += 1;
    for (const [label, code] of documents) {
      const expected = reference.highlight(code, { language: name, ignoreIllegals: true }).value;
      assert.is(highlightCompiled(engine, name, code), expected, `${name}, ${label}`);
    }
  }
  assert.ok(supported > 100, `${supported} grammars supported`);
  assert.ok(compiledLanguage(engine, 'python'));
});

test('highlightEngine :: languages with sub-languages or callbacks are left to highlight.js', () => {
  const api = instanceWithEveryGrammar();
  for (const name of ['xml', 'javascript', 'php', 'markdown']) assert.is(compiledLanguage(api, name), null, name);
  assert.is(highlightCompiled(api, 'xml', '<p>x</p>'), null);
  assert.is(compiledLanguage(api, 'no-such-language'), null);
  // A name registered later (or again) is looked at then.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  api.registerLanguage('no-such-language', require('highlight.js/lib/languages/python') as Parameters<typeof hljs.registerLanguage>[1]);
  assert.ok(compiledLanguage(api, 'no-such-language'));
  assert.is(highlightCompiled(api, 'no-such-language', 'def f(): pass'), api.highlight('def f(): pass', { language: 'python', ignoreIllegals: true }).value);
});

test('highlightEngine :: the document the demo stores for the benchmark\'s snippet is unchanged', () => {
  const api = instanceWithEveryGrammar();
  const code = `${PYTHON}\n`;
  assert.is(highlightCompiled(api, 'python', code), hljs.highlight(code, { language: 'python', ignoreIllegals: true }).value);
});

test('languages :: mapping loads no grammar; highlighting loads the one asked for and what it embeds', () => {
  const script = `
    const path = require('node:path');
    const { highlightLanguage } = require('./demo/snippets/languages');
    const { highlightCode } = require('./demo/snippets/highlight');
    const loaded = () => Object.keys(require.cache).filter((file) => file.includes(path.join('highlight.js', 'lib', 'languages'))).map((file) => path.basename(file, '.js')).sort();
    const all = () => Boolean(require.cache[require.resolve('highlight.js')]);
    const mapped = ${JSON.stringify(LANGUAGE_CHOICES.map(([value]) => value))}.map(highlightLanguage).length;
    const afterMapping = loaded().join(',');
    highlightCode({ code: 'print(1)', language: 'python', style: 'friendly', linenos: false });
    const afterPython = loaded().join(',');
    highlightCode({ code: '<p>x</p>', language: 'html', style: 'friendly', linenos: false });
    process.stdout.write(JSON.stringify({ mapped, afterMapping, afterPython, afterHtml: loaded().join(','), all: all() }));
  `;
  const child = spawnSync(process.execPath, ['-r', require.resolve('ts-node/register/transpile-only'), '-e', script], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  assert.is(child.status, 0, child.stderr);
  assert.equal(JSON.parse(child.stdout), {
    mapped: LANGUAGE_CHOICES.length, afterMapping: '', afterPython: 'python', afterHtml: 'css,graphql,javascript,python,xml', all: false,
  });
});

test.run();
