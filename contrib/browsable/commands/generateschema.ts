/**
 * `manage.ts generateschema`: write the project's OpenAPI 3.1 document, as the original's
 * command of the same name: YAML on stdout by default, `--format openapi-json` for JSON,
 * `--file` to write a file; `--title`, `--description`, `--url`, `--urlconf`, `--api_version`
 * and `--generator_class` configure the generator. The document is public: every operation
 * is listed, whatever the permissions.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../../lib/core/conf';
import { BaseCommand, CommandError, type CommandOptions, type CommandParser } from '../../../lib/core/management';
import { importString } from '../../../lib/core/modules';
import { JSONOpenAPIRenderer, OpenAPIRenderer, SchemaGenerator, type SchemaGeneratorOptions } from '../../../lib/schemas';

const FORMATS: Readonly<Record<string, new () => OpenAPIRenderer | JSONOpenAPIRenderer>> = {
  openapi: OpenAPIRenderer,
  'openapi-json': JSONOpenAPIRenderer,
};

/** Generates the configured API schema of the project. */
export default class Command extends BaseCommand {
  static override help = 'Generates configured API schema for project.';

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'title', type: 'string', default: '', help: 'The document title.' });
    parser.addArgument({ name: 'url', type: 'string', help: 'The URL the API is served at (paths are joined to it).' });
    parser.addArgument({ name: 'description', type: 'string', help: 'The document description.' });
    parser.addArgument({ name: 'format', type: 'string', default: 'openapi', help: "openapi (YAML, the default) or openapi-json." });
    parser.addArgument({ name: 'urlconf', type: 'string', help: 'The URL conf module to document (default: ROOT_URLCONF).' });
    parser.addArgument({ name: 'generator_class', type: 'string', help: 'A dotted path to a SchemaGenerator subclass.' });
    parser.addArgument({ name: 'file', type: 'string', help: 'Write the document to this file instead of stdout.' });
    parser.addArgument({ name: 'api_version', type: 'string', default: '', help: 'The API version documented (only its paths when views are versioned).' });
  }

  /** The generator class: `--generator_class`, else `SchemaGenerator`. */
  getGeneratorClass(dottedPath: string | undefined): new (options: SchemaGeneratorOptions) => SchemaGenerator {
    if (!dottedPath) return SchemaGenerator;
    let cls: unknown;
    try {
      cls = importString(dottedPath);
    } catch (error) {
      throw new CommandError(`Could not import generator class '${dottedPath}': ${(error as Error).message}`);
    }
    if (typeof cls !== 'function' || !(cls === SchemaGenerator || (cls as { prototype: unknown }).prototype instanceof SchemaGenerator)) {
      throw new CommandError(`'${dottedPath}' is not a SchemaGenerator subclass.`);
    }
    return cls as new (options: SchemaGeneratorOptions) => SchemaGenerator;
  }

  override async handle(options: CommandOptions): Promise<void> {
    const format = String(options.format);
    const Renderer = FORMATS[format];
    if (!Renderer) throw new CommandError(`argument --format: invalid choice: '${format}' (choose from 'openapi', 'openapi-json')`);
    const Generator = this.getGeneratorClass(options.generatorClass as string | undefined);
    const generator = new Generator({
      url: (options.url as string | undefined) ?? null,
      title: String(options.title ?? ''),
      description: (options.description as string | undefined) ?? null,
      urlconf: (options.urlconf as string | undefined) ?? null,
      version: String(options.apiVersion ?? ''),
    });
    const document = await generator.getSchema(null, true);
    const output = new Renderer().render(document);
    const file = options.file as string | undefined;
    if (file) {
      await fs.writeFile(path.resolve(PROJECT_ROOT, file), output);
    } else {
      this.stdout.write(output.toString('utf8'));
    }
  }
}
