/**
 * The small HTML helpers shared by the framework's built-in templates (pagination and filter
 * controls of the browsable API). Templates are plain functions of a typed context.
 */

/** A template: a function from its context to an HTML fragment. */
export type TemplateFunction<C> = (context: C) => string;
