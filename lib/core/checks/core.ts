/**
 * Checks of the project's wiring: every `INSTALLED_APPS` entry loads, every `MIDDLEWARE` entry
 * is a class, `ROOT_URLCONF` loads and has `urlpatterns`. Loading the URL conf also loads the
 * project's views (and with them the API framework's own checks).
 */
import { ImproperlyConfigured, settings } from '../conf';
import { apps } from '../apps';
import { importModule } from '../modules';
import { resolveMiddleware } from '../middleware';
import { getResolver, URLResolver, type UrlPattern } from '../urls';
import { Error, type CheckMessage } from './messages';
import { register, Tags } from './registry';

function firstLine(error: unknown): string {
  // A configuration error's message says it all; other errors keep their name.
  const text = error instanceof ImproperlyConfigured ? error.message : error instanceof globalThis.Error ? `${error.name}: ${error.message}` : String(error);
  return text.split('\n')[0];
}

/** `core.E001`: an `INSTALLED_APPS` entry whose `app` module cannot be loaded. */
export function checkInstalledApps(): CheckMessage[] {
  const messages: CheckMessage[] = [];
  for (const name of settings.INSTALLED_APPS) {
    try {
      const mod = importModule(`${name}.app`);
      const config = (mod.default ?? mod.appConfig) as { label?: unknown } | undefined;
      if (!config || typeof config.label !== 'string') {
        messages.push(new Error(`'${name}.app' must default-export an AppConfig with a 'label'.`, { id: 'core.E001', obj: 'INSTALLED_APPS' }));
      }
    } catch (error) {
      messages.push(
        new Error(`INSTALLED_APPS lists '${name}', but '${name}.app' could not be imported: ${firstLine(error)}`, {
          id: 'core.E001',
          obj: 'INSTALLED_APPS',
          hint: 'Check the spelling of the app\'s module path (relative to the project root) and that its folder has app.ts.',
        }),
      );
    }
  }
  if (!messages.length) {
    try {
      apps.populate();
    } catch (error) {
      messages.push(new Error(firstLine(error), { id: 'core.E001', obj: 'INSTALLED_APPS' }));
    }
  }
  return messages;
}

/** `core.E002`: a `MIDDLEWARE` entry that is not a loadable class. */
export function checkMiddleware(): CheckMessage[] {
  const messages: CheckMessage[] = [];
  for (const entry of settings.MIDDLEWARE) {
    try {
      resolveMiddleware(entry);
    } catch (error) {
      messages.push(new Error(firstLine(error), { id: 'core.E002', obj: 'MIDDLEWARE' }));
    }
  }
  return messages;
}

/** `core.E003`: `ROOT_URLCONF` cannot be loaded or has no `urlpatterns` list. */
export function checkUrlConf(): CheckMessage[] {
  if (!settings.ROOT_URLCONF) {
    return [new Error('The ROOT_URLCONF setting is empty.', { id: 'core.E003', obj: 'ROOT_URLCONF' })];
  }
  try {
    // Loading every included URL conf finds a broken include before a request does.
    const visit = (patterns: readonly (UrlPattern | URLResolver)[]): void => {
      for (const pattern of patterns) if (pattern instanceof URLResolver) visit(pattern.urlPatterns);
    };
    visit(getResolver().urlPatterns);
  } catch (error) {
    return [
      new Error(`The URL conf '${settings.ROOT_URLCONF}' could not be loaded: ${firstLine(error)}`, {
        id: 'core.E003',
        obj: 'ROOT_URLCONF',
      }),
    ];
  }
  return [];
}

register(checkInstalledApps, { tags: [Tags.apps] });
register(checkMiddleware, { tags: [Tags.middleware] });
register(checkUrlConf, { tags: [Tags.urls] });
