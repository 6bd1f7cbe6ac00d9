/**
 * Renderers are used to serialize a response into specific media types.
 *
 * They give us a generic way of being able to handle various media types on the response,
 * such as JSON encoded data or HTML output. The browsable API renderer lives in
 * contrib/browsable (`api_framework.renderers.BrowsableAPIRenderer` is an alias of it).
 */
import path from 'node:path';
import type nunjucks from 'nunjucks';
import { FRAMEWORK_ROOT, ImproperlyConfigured, onSettingChanged, PROJECT_ROOT, settings } from './core/conf';
import { modulePathToFile, registerAlias } from './core/modules';
import { apiSettings } from './settings';
import { dumps } from './utils/json';
import { titleCase } from './utils/formatting';
import type { Request } from './request';
import type { Response } from './response';

registerAlias('api_framework.renderers.BrowsableAPIRenderer', 'api_framework.browsable.renderers.BrowsableAPIRenderer');

/** The context every renderer receives from the view. */
export interface RendererContext {
  view?: unknown;
  args?: string[];
  kwargs?: Record<string, unknown>;
  request?: Request | null;
  response?: Response;
  /** Indentation requested by the view (the accepted media type's `indent` wins). */
  indent?: number | null;
  [key: string]: unknown;
}

/** A renderer class, as in `rendererClasses` and `DEFAULT_RENDERER_CLASSES`. */
export type RendererClass = new () => BaseRenderer;

/**
 * All renderers should extend `BaseRenderer`, setting the `mediaType` and `format`
 * attributes, and override the `render()` method.
 */
export abstract class BaseRenderer {
  /** The media type this renderer produces (matched against Accept). */
  abstract readonly mediaType: string;
  /** The format name (`?format=` and URL suffix). */
  abstract readonly format: string;
  /** The charset added to Content-Type, or null for binary/self-describing formats. */
  charset: string | null = 'utf-8';
  /** `text` or `binary`. */
  renderStyle = 'text';

  /** Render `data` for the accepted media type; strings are encoded with `charset`. */
  abstract render(data: unknown, acceptedMediaType?: string | null, rendererContext?: RendererContext): string | Buffer | Promise<string | Buffer>;
}

/** U+2028 or U+2029: characters JSON allows raw but JavaScript string literals do not. */
const LINE_SEPARATORS = /[\u2028\u2029]/;

/** Renderer which serializes to JSON, byte-compatible with the original. */
export class JSONRenderer extends BaseRenderer {
  readonly mediaType: string = 'application/json';
  readonly format: string = 'json';
  override charset: string | null = null;
  /** Escape non-ASCII; undefined reads `!UNICODE_JSON`. */
  ensureAscii?: boolean;
  /** No spaces after separators; undefined reads COMPACT_JSON. */
  compact?: boolean;
  /** Reject NaN and infinities; undefined reads STRICT_JSON. */
  strict?: boolean;

  /** The indent: the accepted media type's `indent` parameter (0-8), else the context's. */
  getIndent(acceptedMediaType: string | null | undefined, rendererContext: RendererContext): number | null {
    if (acceptedMediaType && acceptedMediaType.includes(';')) {
      for (const part of acceptedMediaType.split(';').slice(1)) {
        const [key, value] = part.split('=', 2).map((token) => token.trim());
        if (key?.toLowerCase() === 'indent' && value !== undefined && /^[-+]?\d+$/.test(value)) {
          const indent = Math.max(Math.min(parseInt(value, 10), 8), 0);
          return indent === 0 ? null : indent;
        }
      }
    }
    return rendererContext.indent ?? null;
  }

  /** Render `data` into JSON bytes; null renders as an empty body. */
  render(data: unknown, acceptedMediaType: string | null = null, rendererContext: RendererContext = {}): Buffer {
    return Buffer.from(this.renderText(data, acceptedMediaType, rendererContext), 'utf8');
  }

  /**
   * Render `data` into JSON text (its UTF-8 bytes are what `render()` answers); null renders
   * as an empty text. A response rendered by a JSON renderer that does not override `render()`
   * keeps this text as its content, and the server writes it without a copy into bytes first.
   */
  renderText(data: unknown, acceptedMediaType: string | null = null, rendererContext: RendererContext = {}): string {
    if (data === null || data === undefined) return '';
    const indent = this.getIndent(acceptedMediaType, rendererContext);
    const ensureAscii = this.ensureAscii ?? !apiSettings.UNICODE_JSON;
    const ret = dumps(data, {
      indent,
      ensureAscii,
      compact: this.compact ?? apiSettings.COMPACT_JSON,
      strict: this.strict ?? apiSettings.STRICT_JSON,
    });
    // With `ensureAscii` every other character is escaped, so there is no \u2028 or \u2029.
    // Otherwise they are always fully escaped so that the output is a valid JavaScript literal
    // too (looked for first: replacing copies the text even when neither is there).
    if (ensureAscii || !LINE_SEPARATORS.test(ret)) return ret;
    return ret.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  }
}

// ---------------------------------------------------------------------------------------------
// Templates
// ---------------------------------------------------------------------------------------------

let environment: nunjucks.Environment | null = null;

/** The template library, loaded on first use: JSON-only processes never load it. */
function loadNunjucks(): typeof nunjucks {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('nunjucks') as typeof nunjucks;
}

onSettingChanged((key) => {
  if (key === 'TEMPLATE_DIRS' || key === 'INSTALLED_APPS') environment = null;
});

/**
 * The template folders: the TEMPLATE_DIRS setting (paths relative to the project root),
 * then each installed app's `templates` folder, then the framework's own.
 */
export function templateDirs(): string[] {
  const dirs: string[] = [];
  const configured = settings.TEMPLATE_DIRS;
  if (Array.isArray(configured)) {
    for (const dir of configured) if (typeof dir === 'string') dirs.push(path.resolve(PROJECT_ROOT, dir));
  }
  for (const app of settings.INSTALLED_APPS ?? []) dirs.push(path.join(modulePathToFile(app), 'templates'));
  dirs.push(path.join(FRAMEWORK_ROOT, 'lib', 'templates'));
  return dirs;
}

/** The template engine (nunjucks: Django-like syntax, autoescaping on). */
export function getTemplateEngine(): nunjucks.Environment {
  if (!environment) {
    const engine = loadNunjucks();
    environment = new engine.Environment(new engine.FileSystemLoader(templateDirs(), { noCache: false }), {
      autoescape: true,
      throwOnUndefined: false,
    });
  }
  return environment;
}

/** A loaded template. */
export interface Template {
  render(context: Record<string, unknown>): string;
}

/** Load the first template that exists among `names`; throws `TemplateDoesNotExist`-style errors. */
export function selectTemplate(names: string[]): Template {
  const env = getTemplateEngine();
  for (const name of names) {
    let template: nunjucks.Template;
    try {
      template = env.getTemplate(name, true);
    } catch (error) {
      if (/template not found/i.test((error as Error).message)) continue;
      throw error;
    }
    return { render: (context) => template.render(context) };
  }
  throw new Error(`TemplateDoesNotExist: ${names.join(', ')}`);
}

/**
 * An HTML renderer for use with templates. The data is the template context; the template
 * is the response's `templateName`, else the renderer's, else the view's `templateName` or
 * `getTemplateNames()`. Exceptions render `<status>.html`, then `api_exception.html`, then
 * a plain `404 Not Found` text.
 */
export class TemplateHTMLRenderer extends BaseRenderer {
  readonly mediaType: string = 'text/html';
  readonly format: string = 'html';
  /** The template used when neither the response nor the view names one. */
  templateName: string | null = null;
  /** The templates tried for error responses (`%(status_code)s` is replaced). */
  exceptionTemplateNames: string[] = ['%(status_code)s.html', 'api_exception.html'];

  /** Render the template with the data as context. */
  render(data: unknown, _acceptedMediaType: string | null = null, rendererContext: RendererContext = {}): string {
    const view = rendererContext.view;
    const response = rendererContext.response;
    if (!response) throw new ImproperlyConfigured('TemplateHTMLRenderer needs the response in the renderer context.');
    const template = response.exception
      ? this.getExceptionTemplate(response)
      : this.resolveTemplate(this.getTemplateNames(response, view));
    return template.render(this.getTemplateContext(data, rendererContext));
  }

  /** Load the first existing template among `templateNames`. */
  resolveTemplate(templateNames: string[]): Template {
    return selectTemplate(templateNames);
  }

  /** The template context: the data (plus `status_code` for errors) and the request. */
  getTemplateContext(data: unknown, rendererContext: RendererContext): Record<string, unknown> {
    const context: Record<string, unknown> = data !== null && typeof data === 'object' && !Array.isArray(data)
      ? { ...(data as Record<string, unknown>) }
      : { data };
    const response = rendererContext.response;
    if (response?.exception) context.status_code = response.status;
    if (!('request' in context)) context.request = rendererContext.request ?? null;
    return context;
  }

  /** The templates to try, most specific first. */
  getTemplateNames(response: Response, view: unknown): string[] {
    if (response.templateName) return [response.templateName];
    if (this.templateName) return [this.templateName];
    const viewLike = (view ?? {}) as { getTemplateNames?: () => string[]; templateName?: string | null };
    if (typeof viewLike.getTemplateNames === 'function') return viewLike.getTemplateNames();
    if (viewLike.templateName) return [viewLike.templateName];
    throw new ImproperlyConfigured(
      'Returned a template response with no `templateName` attribute set on either the view or response',
    );
  }

  /** The template for an error response, or a plain `<status> <Reason>` text. */
  getExceptionTemplate(response: Response): Template {
    const names = this.exceptionTemplateNames.map((name) => name.replace('%(status_code)s', String(response.status)));
    try {
      return this.resolveTemplate(names);
    } catch {
      const body = `${response.status} ${titleCase(response.statusText)}`;
      return { render: () => body };
    }
  }
}

/**
 * An HTML renderer for pre-rendered HTML: the data is the HTML string. Errors render like
 * `TemplateHTMLRenderer`'s.
 */
export class StaticHTMLRenderer extends TemplateHTMLRenderer {
  /** Return the HTML as is (or the error template for exceptions). */
  override render(data: unknown, _acceptedMediaType: string | null = null, rendererContext: RendererContext = {}): string {
    const response = rendererContext.response;
    if (response && response.exception) {
      return this.getExceptionTemplate(response).render(this.getTemplateContext(data, rendererContext));
    }
    return data === null || data === undefined ? '' : String(data);
  }
}

/** A file to put in a multipart body: a name, optional content type and the content. */
export interface MultipartFile {
  name: string;
  contentType?: string;
  content?: Buffer | string;
  read?: () => Buffer | string | Promise<Buffer | string>;
}

function isMultipartFile(value: unknown): value is MultipartFile {
  if (value === null || typeof value !== 'object') return false;
  const candidate = value as Partial<MultipartFile>;
  return typeof candidate.read === 'function' || (typeof candidate.name === 'string' && candidate.content !== undefined);
}

function formValue(value: unknown): string {
  if (value === true) return 'True';
  if (value === false) return 'False';
  return String(value);
}

/** Renders data as a `multipart/form-data` body, the way the test client sends forms. */
export class MultiPartRenderer extends BaseRenderer {
  static readonly BOUNDARY = 'BoUnDaRyStRiNg';
  readonly mediaType: string = `multipart/form-data; boundary=${MultiPartRenderer.BOUNDARY}`;
  readonly format: string = 'multipart';

  /** Encode a flat object of values, lists of values and files. Nested objects are refused. */
  async render(data: unknown): Promise<Buffer> {
    const boundary = MultiPartRenderer.BOUNDARY;
    const parts: Buffer[] = [];
    const line = (text: string): void => {
      parts.push(Buffer.from(text, 'utf8'));
    };
    const entries = data !== null && typeof data === 'object' ? Object.entries(data as Record<string, unknown>) : [];
    const addFile = async (key: string, file: MultipartFile): Promise<void> => {
      const filename = path.basename(file.name || '') || key;
      const raw = file.read ? await file.read() : (file.content ?? '');
      line(`--${boundary}`);
      line(`Content-Disposition: form-data; name="${key}"; filename="${filename}"`);
      line(`Content-Type: ${file.contentType ?? 'application/octet-stream'}`);
      line('');
      parts.push(Buffer.isBuffer(raw) ? raw : Buffer.from(raw, 'utf8'));
    };
    for (const [key, value] of entries) {
      if (value === null || value === undefined) {
        throw new TypeError(`Cannot encode None for key '${key}' as POST data. Did you mean to pass an empty string or omit the value?`);
      }
      if (isMultipartFile(value)) {
        await addFile(key, value);
      } else if (Array.isArray(value)) {
        for (const item of value) {
          if (isMultipartFile(item)) await addFile(key, item);
          else {
            line(`--${boundary}`);
            line(`Content-Disposition: form-data; name="${key}"`);
            line('');
            line(formValue(item));
          }
        }
      } else if (typeof value === 'object' && !(value instanceof String) && !(value instanceof Date)) {
        throw new TypeError(
          `Test data contained a dictionary value for key '${key}', but multipart uploads do not support nested data. You may want to consider using format='json' in this test case.`,
        );
      } else {
        line(`--${boundary}`);
        line(`Content-Disposition: form-data; name="${key}"`);
        line('');
        line(formValue(value));
      }
    }
    line(`--${boundary}--`);
    parts.push(Buffer.alloc(0));
    const joined: Buffer[] = [];
    parts.forEach((part, index) => {
      if (index > 0) joined.push(Buffer.from('\r\n'));
      joined.push(part);
    });
    return Buffer.concat(joined);
  }
}
