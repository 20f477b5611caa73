// Minimal types for two untyped npm packages, only the calls src/demo makes.
declare module 'parse-address' {
  const parser: { parseLocation(address: string): Record<string, string | undefined> | null };
  export default parser;
}
declare module 'zipcodes' {
  const zipcodes: { lookup(zip: string): { zip: string; city: string; state: string; latitude: number; longitude: number } | undefined };
  export default zipcodes;
}
