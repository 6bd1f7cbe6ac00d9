/**
 * `AuthTokenSerializer`: checks a username and password for the token-obtain view.
 */
import { authenticate } from '../../contrib/auth';
import type { AuthUser, HttpRequest } from '../../lib/core/http';
import { gettext } from '../../lib/core/i18n';
import { ValidationError } from '../../lib/exceptions';
import { CharField } from '../../lib/fields';
import type { Request } from '../../lib/request';
import { Serializer } from '../../lib/serializers';

function httpRequestOf(value: unknown): HttpRequest | null {
  if (value && typeof value === 'object' && 'httpRequest' in value) return (value as Request).httpRequest;
  return null;
}

/**
 * Validates `username` and `password` against the authentication backends and puts the
 * user in `validatedData.user`. Subclass to accept other credentials (an email, say).
 */
export class AuthTokenSerializer extends Serializer {
  static fields = {
    username: new CharField({ label: gettext('Username'), writeOnly: true }),
    password: new CharField({ label: gettext('Password'), style: { input_type: 'password' }, trimWhitespace: false, writeOnly: true }),
    token: new CharField({ label: gettext('Token'), readOnly: true }),
  };

  /** Authenticate the credentials; errors are non-field errors with code `authorization`. */
  override async validate(attrs: Record<string, unknown>): Promise<Record<string, unknown>> {
    const username = typeof attrs.username === 'string' ? attrs.username : '';
    const password = typeof attrs.password === 'string' ? attrs.password : '';
    if (!username || !password) {
      throw new ValidationError(gettext('Must include "username" and "password".'), 'authorization');
    }
    const user: AuthUser | null = await authenticate(httpRequestOf(this.context.request), { username, password });
    if (!user) {
      throw new ValidationError(gettext('Unable to log in with provided credentials.'), 'authorization');
    }
    return { ...attrs, user };
  }
}
