/**
 * The OpenAPI 3.1 objects schema generation builds (only the parts it writes). Schemas are
 * JSON Schema 2020-12, kept as plain records so hooks can add any keyword.
 */

/** A JSON Schema 2020-12 schema (OpenAPI 3.1 Schema Object). */
export type SchemaObject = Record<string, unknown>;

/** An OpenAPI Parameter Object. */
export interface ParameterObject {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required: boolean;
  description: string;
  schema: SchemaObject;
  [extension: string]: unknown;
}

/** An OpenAPI Media Type Object. */
export interface MediaTypeObject {
  schema?: SchemaObject;
  [key: string]: unknown;
}

/** An OpenAPI Request Body Object. */
export interface RequestBodyObject {
  content: Record<string, MediaTypeObject>;
  required?: boolean;
  description?: string;
}

/** An OpenAPI Response Object. */
export interface ResponseObject {
  description: string;
  content?: Record<string, MediaTypeObject>;
  headers?: Record<string, unknown>;
}

/** An OpenAPI Security Requirement Object: scheme name -> scopes. */
export type SecurityRequirement = Record<string, string[]>;

/** An OpenAPI Security Scheme Object. */
export interface SecuritySchemeObject {
  type: 'http' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'mutualTLS';
  description?: string;
  scheme?: string;
  name?: string;
  in?: 'query' | 'header' | 'cookie';
  [key: string]: unknown;
}

/** An OpenAPI Operation Object, as `AutoSchema.getOperation()` answers it. */
export interface Operation {
  operationId: string;
  description: string;
  summary?: string;
  parameters: ParameterObject[];
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject>;
  tags: string[];
  security?: SecurityRequirement[];
  deprecated?: boolean;
  [extension: string]: unknown;
}

/** What one view contributes to `components`. */
export interface Components {
  schemas: Record<string, SchemaObject>;
  securitySchemes: Record<string, SecuritySchemeObject>;
}

/** A whole OpenAPI 3.1 document. */
export interface OpenAPIDocument {
  openapi: string;
  jsonSchemaDialect?: string;
  info: { title: string; version: string; description?: string };
  servers?: Array<{ url: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
  components?: Partial<Components>;
  [key: string]: unknown;
}

/** Which side of the wire a serializer schema describes: what clients send, or what they get. */
export type SchemaDirection = 'request' | 'response';
