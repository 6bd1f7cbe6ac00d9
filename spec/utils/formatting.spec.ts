import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { camelcaseToSpaces, dedent, markupDescription, removeTrailingString, safeLinkUrl } from '../../lib/utils/formatting';

const test = suite('utils/formatting');

test('names :: trailing suffixes, camel case and indentation', () => {
  assert.is(removeTrailingString('SnippetViewSet', 'ViewSet'), 'Snippet');
  assert.is(removeTrailingString('View', 'View'), 'View');
  assert.is(camelcaseToSpaces('SnippetHighlight'), 'Snippet Highlight');
  assert.is(camelcaseToSpaces('APIRoot'), 'Api Root');
  assert.is(dedent('First line.\n    second\n      third\n'), 'First line.\nsecond\n  third');
});

test('markupDescription :: Markdown becomes HTML', () => {
  assert.is(markupDescription('All the **notes**.'), '<p>All the <strong>notes</strong>.</p>\n');
  assert.is(markupDescription('See [the docs](/docs/?a=1&amp;b=2 "Docs & more").'),
    '<p>See <a href="/docs/?a=1&amp;b=2" title="Docs &amp; more">the docs</a>.</p>\n');
  assert.is(markupDescription('<https://example.com/é?next=%2Fx%2F>'),
    '<p><a href="https://example.com/%C3%A9?next=%2Fx%2F">https://example.com/é?next=%2Fx%2F</a></p>\n');
  assert.is(markupDescription('![logo](/static/logo.png)'), '<p><img src="/static/logo.png" alt="logo"></p>\n');
  assert.is(markupDescription('Mail [us](mailto:a@example.com).'), '<p>Mail <a href="mailto:a@example.com">us</a>.</p>\n');
});

test('markupDescription :: raw HTML in the source is shown as text', () => {
  assert.is(markupDescription('<script>alert("x")</script>'), '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  assert.is(markupDescription('Text <img src=x onerror=alert(1)> & more'),
    '<p>Text &lt;img src=x onerror=alert(1)&gt; &amp; more</p>\n');
  const block = markupDescription('<div onclick="steal()">\nhi\n</div>\n\nAfter.');
  assert.not.match(block, /<div/);
  assert.match(block, /&lt;div onclick=&quot;steal\(\)&quot;&gt;/);
  assert.match(block, /<p>After\.<\/p>/);
});

test('markupDescription :: javascript: and data: links and images keep only their text', () => {
  const hostile = [
    '[click](javascript:alert(1))',
    '[click](JaVaScRiPt:alert(1))',
    '[click](java&#x09;script:alert(1))',
    '[click](&#106;avascript:alert(1))',
    '[click](javascript&colon;alert(1))',
    '[click](data:text/html;base64,PHNjcmlwdD4=)',
    '[click](vbscript:msgbox(1))',
    '<javascript:alert(1)>',
    '[click][ref]\n\n[ref]: javascript:alert(1)',
  ];
  for (const source of hostile) {
    const html = markupDescription(source);
    assert.not.match(html, /<a /, source);
    assert.not.match(html.toLowerCase(), /href/, source);
  }
  assert.is(markupDescription('[**bold** text](javascript:alert(1))'), '<p><strong>bold</strong> text</p>\n');
  assert.is(markupDescription('![pic](data:image/svg+xml;base64,PHN2Zz4=)'), '<p>pic</p>\n');
});

test('safeLinkUrl :: relative and http(s)/mailto/ftp URLs only', () => {
  assert.is(safeLinkUrl('/snippets/?page=2'), '/snippets/?page=2');
  assert.is(safeLinkUrl('snippets/1/'), 'snippets/1/');
  assert.is(safeLinkUrl('#top'), '#top');
  assert.is(safeLinkUrl('HTTPS://example.com/a b'), 'HTTPS://example.com/a%20b');
  assert.is(safeLinkUrl(' \u0001javascript:x'), null);
  assert.is(safeLinkUrl('jav\nascript:x'), null);
  assert.is(safeLinkUrl('javascript&#58;x'), null);
  assert.is(safeLinkUrl('data:,x'), null);
  assert.is(safeLinkUrl('file:///etc/passwd'), null);
});

test.run();
