/**
 * The renderers of OpenAPI documents: YAML (`application/vnd.oai.openapi`, `?format=openapi`)
 * and JSON (`application/vnd.oai.openapi+json`, `?format=openapi-json`), as the original's.
 */
import { BaseRenderer } from '../renderers';
import { apiSettings } from '../settings';
import { dumps } from '../utils/json';

/** Renders a document as YAML, in the document's key order and without anchors or aliases. */
export class OpenAPIRenderer extends BaseRenderer {
  readonly mediaType: string = 'application/vnd.oai.openapi';
  readonly format: string = 'openapi';
  override charset: string | null = null;

  /** The YAML text of `data`, UTF-8 encoded (the YAML library loads on the first document). */
  render(data: unknown): Buffer {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { stringify } = require('yaml') as typeof import('yaml');
    return Buffer.from(stringify(data, { aliasDuplicateObjects: false, lineWidth: 0 }), 'utf8');
  }
}

/** Renders a document as JSON indented by 2 (non-ASCII escaped unless UNICODE_JSON). */
export class JSONOpenAPIRenderer extends BaseRenderer {
  readonly mediaType: string = 'application/vnd.oai.openapi+json';
  readonly format: string = 'openapi-json';
  override charset: string | null = null;
  /** Escape non-ASCII; undefined reads `!UNICODE_JSON`. */
  ensureAscii?: boolean;

  /** The JSON text of `data`, UTF-8 encoded. */
  render(data: unknown): Buffer {
    const text = dumps(data, { indent: 2, ensureAscii: this.ensureAscii ?? !apiSettings.UNICODE_JSON, compact: false, strict: true });
    return Buffer.from(text, 'utf8');
  }
}
