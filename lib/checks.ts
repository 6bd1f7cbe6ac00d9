/**
 * The API framework's system checks (`manage.ts check`): every view reachable from the URL conf
 * whose `serializerClass` is a `ModelSerializer` must name its model (`static Meta = { model }`).
 * Registered when the generic views load, as the original registers its checks in its app.
 */
import { Error as CheckError, register, Tags, type CheckMessage } from './core/checks';
import { getResolver, URLResolver, type UrlPattern } from './core/urls';
import { ModelSerializer } from './serializers';

interface ViewWithClass {
  viewClass?: new () => object;
  viewInitkwargs?: Record<string, unknown>;
}

function viewClassesOf(patterns: readonly (UrlPattern | URLResolver)[], found: Set<new () => object>): void {
  for (const pattern of patterns) {
    if (pattern instanceof URLResolver) {
      viewClassesOf(pattern.urlPatterns, found);
      continue;
    }
    const cls = (pattern.callback as ViewWithClass).viewClass;
    if (typeof cls === 'function') found.add(cls);
  }
}

/** The serializer class a view declares (`serializerClass`), if any. */
function declaredSerializer(cls: new () => object): unknown {
  try {
    return (new cls() as { serializerClass?: unknown }).serializerClass;
  } catch {
    return undefined;
  }
}

/**
 * `api_framework.E001`: a view's `serializerClass` is a `ModelSerializer` without `Meta`, and
 * `api_framework.E002`: one whose `Meta` has no `model`.
 */
export function checkModelSerializers(): CheckMessage[] {
  const classes = new Set<new () => object>();
  try {
    viewClassesOf(getResolver().urlPatterns, classes);
  } catch {
    return []; // a URL conf that does not load is core.E003's report
  }
  const messages: CheckMessage[] = [];
  const seen = new Set<unknown>();
  for (const cls of classes) {
    const serializer = declaredSerializer(cls);
    if (typeof serializer !== 'function' || seen.has(serializer) || !(serializer.prototype instanceof ModelSerializer)) continue;
    seen.add(serializer);
    const meta: unknown = 'Meta' in serializer ? serializer.Meta : undefined;
    if (!meta) {
      messages.push(
        new CheckError(`Class ${serializer.name} missing "Meta" attribute`, {
          id: 'api_framework.E001',
          obj: serializer,
          hint: `Declare the model: static Meta = { model: MyModel, fields: [...] } (used by the view ${cls.name}).`,
        }),
      );
    } else if (typeof meta !== 'object' || !('model' in meta) || !meta.model) {
      messages.push(
        new CheckError(`Class ${serializer.name} missing "Meta.model" attribute`, {
          id: 'api_framework.E002',
          obj: serializer,
          hint: `Add the model to ${serializer.name}.Meta (used by the view ${cls.name}).`,
        }),
      );
    }
  }
  return messages;
}

register(checkModelSerializers, { tags: [Tags.serializers] });
