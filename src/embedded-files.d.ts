// Module shapes for files imported with Bun import attributes (they are embedded by `bun build --compile`).

/** `with { type: 'file' }`: the path of the file (inside the binary: a /$bunfs/ path Bun.file reads). */
declare module 'swagger-ui-dist/*' {
  const path: string;
  export default path;
}

/** `with { type: 'file' }` of the bundled sample index: its path inside the binary (src/index/bundled.ts). */
declare module '*.sqlite' {
  const path: string;
  export default path;
}

/** `with { type: 'file' }` of the bundled sample's area file: its path inside the binary. */
declare module '*.sqlite.area' {
  const path: string;
  export default path;
}

/** The web page's bundle (scripts/build-web.ts): typed here so a checkout that has not built it still typechecks. */
declare module '*/dist/web/bundle.json' {
  const bundle: { source_hash: string; files: { path: string; type: string; body: string }[] };
  export default bundle;
}

/** `with { type: 'file' }` of the bundled ZIP table (src/address/zip-table.ts): its path, inside the binary too. */
declare module '*/data/zip-table.tsv' {
  const path: string;
  export default path;
}
