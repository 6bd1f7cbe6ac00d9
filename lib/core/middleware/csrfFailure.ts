/**
 * The default answer to a failed CSRF check (the host framework's `csrf_failure` view): a 403
 * `text/html` page with the host framework's messages, explaining a missing cookie or Referer
 * when that was the reason, and the reason itself only with DEBUG on. `CSRF_FAILURE_VIEW`
 * (a dotted path to `(request, reason) => HttpResponse`) replaces it.
 */
import { settings } from '../conf';
import { HttpResponseForbidden, type HttpRequest, type HttpResponse } from '../http';
import { escapeHtml } from '../html';
import { gettext } from '../i18n';
import { importString } from '../modules';

/** A view answering a failed CSRF check. */
export type CsrfFailureView = (request: HttpRequest, reason: string) => HttpResponse | Promise<HttpResponse>;

const NO_REFERER = 'Referer checking failed - no Referer.';
const NO_CSRF_COOKIE = 'CSRF cookie not set.';

function paragraphs(messages: string[]): string {
  return messages.map((message) => `  <p>${escapeHtml(gettext(message))}</p>\n`).join('');
}

/** The default CSRF failure page. */
export function csrfFailure(_request: HttpRequest, reason = ''): HttpResponse {
  let explanation = '';
  if (reason === NO_REFERER) {
    explanation = paragraphs([
      'You are seeing this message because this HTTPS site requires a “Referer header” to be sent by your Web browser, but none was sent. This header is required for security reasons, to ensure that your browser is not being hijacked by third parties.',
      'If you have configured your browser to disable “Referer” headers, please re-enable them, at least for this site, or for HTTPS connections, or for “same-origin” requests.',
      'If you are using the <meta name="referrer" content="no-referrer"> tag or including the “Referrer-Policy: no-referrer” header, please remove them. The CSRF protection requires the “Referer” header to do strict referer checking. If you’re concerned about privacy, use alternatives like <a rel="noreferrer" …> for links to third-party sites.',
    ]);
  } else if (reason === NO_CSRF_COOKIE) {
    explanation = paragraphs([
      'You are seeing this message because this site requires a CSRF cookie when submitting forms. This cookie is required for security reasons, to ensure that your browser is not being hijacked by third parties.',
      'If you have configured your browser to disable cookies, please re-enable them, at least for this site, or for “same-origin” requests.',
    ]);
  }
  const footer = settings.DEBUG
    ? `<div>\n  <p>Reason given for failure:</p>\n  <pre>${escapeHtml(reason)}</pre>\n  <p>You can customize this page using the CSRF_FAILURE_VIEW setting.</p>\n</div>\n`
    : `<div>\n  <p><small>${escapeHtml(gettext('More information is available with DEBUG=True.'))}</small></p>\n</div>\n`;
  const body = '<!DOCTYPE html>\n<html lang="en">\n<head>\n  <meta charset="utf-8">\n  <meta name="robots" content="NONE,NOARCHIVE">\n' +
    '  <title>403 Forbidden</title>\n</head>\n<body>\n<div>\n' +
    `  <h1>${escapeHtml(gettext('Forbidden'))} <span>(403)</span></h1>\n` +
    `  <p>${escapeHtml(gettext('CSRF verification failed. Request aborted.'))}</p>\n${explanation}</div>\n${footer}</body>\n</html>\n`;
  return new HttpResponseForbidden(body, { contentType: 'text/html' });
}

/** The view named by `CSRF_FAILURE_VIEW`, or `csrfFailure`. */
export function getFailureView(): CsrfFailureView {
  const path = settings.CSRF_FAILURE_VIEW;
  if (!path) return csrfFailure;
  return importString<CsrfFailureView>(path, 'CSRF_FAILURE_VIEW');
}
