/** Normalised form of a street address + ZIP used to match demo addresses against the index.
 * PLACEHOLDER: issue 5 replaces this with full USPS-style normalisation. */
export function normalizeAddressKey(street: string, zip: string): string {
  const s = street.toUpperCase().replace(/[^A-Z0-9 ]+/g, ' ').replace(/\s+/g, ' ').trim();
  return `${s}|${zip.slice(0, 5)}`;
}
