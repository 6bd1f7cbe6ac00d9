/**
 * The files `startapp NAME` writes (the host framework's app template): the app config, empty
 * models/serializers/views to fill in, a router URL conf, an admin module, an empty
 * `migrations/` for `makemigrations`, and a spec that runs with the project's `npm test`.
 */

/** What the app templates are filled with. */
export interface AppTemplateContext {
  /** The app's name: its folder, label and dotted path in INSTALLED_APPS. */
  name: string;
}

/** `books` -> `Books`, `book_club` -> `Book club` (the app's verbose name). */
function verboseName(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The app's files, by path relative to the app folder (a trailing `/` makes a folder). */
export function appFiles(context: AppTemplateContext): Record<string, string> {
  const { name } = context;
  return {
    'app.ts': `/**
 * The ${name} app: list '${name}' in INSTALLED_APPS. Its models are the model classes
 * models.ts exports; its migrations live in migrations/ (\`manage.ts makemigrations ${name}\`).
 */
import type { AppConfig } from 'api_framework';

const config: AppConfig = {
  label: '${name}',
  verboseName: '${verboseName(name)}',
  models: './models',
};

export default config;
`,
    'models.ts': `/**
 * The ${name} app's models. For example:
 *
 *   @Table({ tableName: '${name}_book' })
 *   export class Book extends BaseModel {
 *     declare static objects: Manager<Book>;
 *     static override meta: ModelMeta = { appLabel: '${name}' };
 *
 *     @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
 *     declare id: number;
 *
 *     @Column(field({ type: DataType.STRING(200), unique: true }))
 *     declare title: string;
 *   }
 *
 * with \`import { BaseModel, Column, DataType, Table, field, type Manager, type ModelMeta } from 'api_framework/db';\`
 * then \`npx ts-node manage.ts makemigrations ${name}\` and \`npx ts-node manage.ts migrate\`.
 */
import 'reflect-metadata';

export {};
`,
    'serializers.ts': `/**
 * The ${name} app's serializers, e.g.
 *
 *   export class BookSerializer extends serializers.ModelSerializer {
 *     static Meta: serializers.ModelSerializerMeta = { model: Book, fields: ['id', 'title'] };
 *   }
 *
 * with \`import { serializers } from 'api_framework';\`.
 */
export {};
`,
    'views.ts': `/**
 * The ${name} app's views, e.g. a view set for the router in urls.ts:
 *
 *   export class BookViewSet extends viewsets.ModelViewSet<Book> {
 *     override queryset = Book.objects.all();
 *     override serializerClass = BookSerializer;
 *   }
 *
 * with \`import { viewsets } from 'api_framework';\`.
 */
export {};
`,
    'urls.ts': `/**
 * The ${name} app's URL conf: register view sets on the router
 * (\`router.register('books', BookViewSet)\`) and include it in the project's URL conf:
 * \`path('', include(${name}Router.urls))\` with \`import { router as ${name}Router } from '../${name}/urls';\`.
 */
import { routers } from 'api_framework';

export const router = new routers.DefaultRouter();

export const urlpatterns = router.urls;
`,
    'admin.ts': `/**
 * The ${name} app's admin registrations, loaded by the admin when its pages are first served
 * (\`adminSite.register(Book, { listDisplay: ['id', 'title'], searchFields: ['title'] })\`).
 */
import { adminSite } from 'api_framework/contrib/admin';

export { adminSite };
`,
    'migrations/': '',
    [`${name}.spec.ts`]: `/**
 * The ${name} app's tests (\`npm test\` runs every *.spec.ts): a uvu suite with its own test
 * database (\`useTestDatabase\`), requests through \`APIClient\`.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { APIClient, overrideSettings, useTestDatabase } from 'api_framework/test';

const ${name} = suite('${name}');
useTestDatabase(${name});

${name}('the app router answers its API root (a link per registered view set)', async () => {
  await overrideSettings({ ROOT_URLCONF: '${name}.urls' }, async () => {
    const response = await new APIClient().get('/', { format: 'json' });
    assert.is(response.statusCode, 200);
    assert.type(response.json(), 'object');
  });
});

${name}.run();
`,
  };
}
