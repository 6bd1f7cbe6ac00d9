/*
 * The browsable API's small script: sends the forms and buttons that HTML cannot send by
 * itself (PUT, PATCH, DELETE, OPTIONS and raw bodies) with fetch(), adding the CSRF token
 * header, then shows the page the server answered with. No inline handlers, no libraries.
 */
(function () {
  'use strict';

  var config = document.body ? document.body.dataset : {};
  var csrfHeader = config.csrfHeaderName || 'X-CSRFToken';

  function csrfToken() {
    var input = document.querySelector('input[name="csrfmiddlewaretoken"]');
    return (input && input.value) || config.csrfToken || '';
  }

  function showResponse(html) {
    document.open();
    document.write(html);
    document.close();
  }

  function send(method, url, body, contentType) {
    var headers = { Accept: 'text/html; q=1.0, */*' };
    headers[csrfHeader] = csrfToken();
    if (contentType) headers['Content-Type'] = contentType;
    return fetch(url, { method: method, headers: headers, body: body, credentials: 'same-origin' })
      .then(function (response) { return response.text(); })
      .then(showResponse)
      .catch(function (error) { window.alert('The request failed: ' + error); });
  }

  // HTML forms for PUT and PATCH: the form's fields, as multipart.
  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    var submitter = event.submitter;
    var method = (submitter && submitter.dataset.method) || form.dataset.method;
    if (!method) return;
    event.preventDefault();
    var url = form.getAttribute('action') || window.location.href;
    if (form.dataset.raw !== undefined) {
      var type = form.querySelector('[name="_content_type"]').value;
      var content = form.querySelector('[name="_content"]').value;
      if (type === 'multipart/form-data' || type === 'application/x-www-form-urlencoded') {
        // A raw form body is typed as query string text (a=1&b=2); send it in the chosen encoding.
        var params = new URLSearchParams(content.trim());
        params.append('csrfmiddlewaretoken', csrfToken());
        if (type === 'multipart/form-data') {
          var data = new FormData();
          params.forEach(function (value, key) { data.append(key, value); });
          send(method.toUpperCase(), url, data, null);
        } else {
          send(method.toUpperCase(), url, params.toString(), type);
        }
      } else {
        send(method.toUpperCase(), url, content, type);
      }
      return;
    }
    send(method.toUpperCase(), url, new FormData(form), null);
  });

  // Buttons that send a bodiless request (DELETE after confirmation, OPTIONS).
  document.addEventListener('click', function (event) {
    var target = event.target instanceof Element ? event.target.closest('[data-request-method]') : null;
    if (!target) return;
    event.preventDefault();
    var method = target.dataset.requestMethod;
    var url = target.dataset.url || window.location.href;
    var dialogId = target.dataset.confirm;
    if (dialogId) {
      var dialog = document.getElementById(dialogId);
      if (dialog && typeof dialog.showModal === 'function') {
        dialog.showModal();
        return;
      }
      if (!window.confirm('Are you sure?')) return;
    }
    if (target.closest('dialog')) target.closest('dialog').close();
    send(method, url, null, null);
  });

  // Close dialogs from their cancel buttons.
  document.addEventListener('click', function (event) {
    var target = event.target instanceof Element ? event.target.closest('[data-dismiss="dialog"]') : null;
    if (target && target.closest('dialog')) target.closest('dialog').close();
  });
})();
