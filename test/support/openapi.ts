/** Follows a local `$ref` ("#/components/...") in an OpenAPI document; other nodes come back as they are. */
export function deref(doc: any, node: any): any {
  if (!node?.$ref) return node;
  return deref(doc, node.$ref.slice(2).split('/').reduce((n: any, k: string) => n?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc));
}
