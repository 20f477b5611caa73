/** Lower-case hex SHA-256 of `data` (a string is hashed as UTF-8): API key hashes, report cache keys and checksums, score hashes. */
export function sha256Hex(data: string | Uint8Array): string {
  return Bun.SHA256.hash(data, 'hex');
}
