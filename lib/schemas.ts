/**
 * Schema generation (OpenAPI 3.1): every view carries a view inspector as its `schema`
 * attribute (`DEFAULT_SCHEMA_CLASS`, `AutoSchema` by default); `SchemaGenerator` walks the URL
 * conf and assembles the document; `getSchemaView()` serves it as JSON or YAML, and
 * `getDocsView()` an interactive reference page. The pieces live in `lib/schemas/`.
 */
export { ViewInspector, attachSchema, schemaFor, type InspectedView } from './schemas/inspector';
export { AutoSchema, type AutoSchemaOptions, ERROR_COMPONENTS, errorDetailSchema, validationErrorSchema } from './schemas/autoSchema';
export {
  EndpointEnumerator, SchemaGenerator, OPENAPI_VERSION, JSON_SCHEMA_DIALECT, converterSchema, groupSchema, namedGroups,
  type Endpoint, type SchemaGeneratorOptions,
} from './schemas/generator';
export { securitySchemeFor, csrfHeaderName, type NamedSecurityScheme } from './schemas/security';
export * from './schemas/fieldMapping';
export type * from './schemas/types';
export { OpenAPIRenderer, JSONOpenAPIRenderer } from './schemas/renderers';
export { SchemaView, getSchemaView, type SchemaViewOptions } from './schemas/views';
export { getDocsView, docsUrlpatterns, docsAsset, docsSchemaUrl, renderDocsPage, swaggerUiDistDir, DOCS_ASSET_MAX_AGE, type DocsViewOptions } from './schemas/docs';
