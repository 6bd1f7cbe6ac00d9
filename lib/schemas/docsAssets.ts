/**
 * The API docs page's own assets, served as files (`assets/docs.js`, `assets/docs.css`) so the
 * page needs no inline script or style (a strict Content-Security-Policy allows it).
 */

/**
 * The page's script: reads the page's JSON configuration, starts Swagger UI on the schema URL,
 * and sends the CSRF token from the CSRF cookie in the CSRF header on unsafe requests, so
 * "Try it out" works with a session login as well as with `Authorization: Token <key>`.
 */
export const DOCS_SCRIPT = `(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('api-docs-config').textContent);
  var SAFE_METHODS = /^(GET|HEAD|OPTIONS|TRACE)$/i;

  function readCookie(name) {
    var pairs = document.cookie ? document.cookie.split(';') : [];
    for (var i = 0; i < pairs.length; i++) {
      var pair = pairs[i].replace(/^\\s+/, '');
      var eq = pair.indexOf('=');
      if (eq > 0 && pair.slice(0, eq) === name) {
        var value = pair.slice(eq + 1);
        if (value.charAt(0) === '"') value = value.slice(1, -1);
        try { return decodeURIComponent(value); } catch (e) { return value; }
      }
    }
    return null;
  }

  window.apiDocs = SwaggerUIBundle({
    url: config.schemaUrl,
    dom_id: '#swagger-ui',
    deepLinking: true,
    displayOperationId: true,
    persistAuthorization: false,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    requestInterceptor: function (request) {
      if (!SAFE_METHODS.test(request.method || 'GET')) {
        var token = readCookie(config.csrfCookieName);
        if (token) request.headers[config.csrfHeaderName] = token;
      }
      return request;
    }
  });
})();
`;

/** The page's style: the login bar above Swagger UI. */
export const DOCS_STYLE = `.api-docs-account {
  font-family: sans-serif;
  font-size: 14px;
  text-align: right;
  padding: 8px 20px 0;
}
.api-docs-account a { color: #4990e2; }
`;
