/**
 * The schema vocabulary every model declares its types with: Elysia's `t`, which is TypeBox's
 * `Type` plus the kinds the API relies on. Its `t.Integer` also accepts an integer's text (path and
 * query parameters arrive as text) and `t.UnionEnum` is Elysia's own kind; plain TypeBox would
 * reject the one, lack the other and change the OpenAPI document. Importing it from here keeps
 * Elysia out of every engine folder: only src/api/ and this file name the framework.
 */
export { t, type Static } from 'elysia';
