// Minimal types for an untyped npm package, only the calls src/demo makes.
declare module 'parse-address' {
  const parser: { parseLocation(address: string): Record<string, string | undefined> | null };
  export default parser;
}
