/**
 * Non-reversible identifiers for values that must not be kept or shown in the clear (credentials).
 */

/**
 * A 64-bit hash (16 hex digits) of the given parts, for keying in-memory registries by credentials without
 * storing the credentials: two 32-bit FNV-1a lanes with different offset bases over the UTF-16 code units, each
 * part prefixed by its length. Synchronous and dependency-free; not meant as a cryptographic commitment.
 */
export function fingerprint(...parts: readonly string[]): string {
  let high = 0x811c9dc5;
  let low = 0x01000193 ^ 0x5bd1e995;
  const mix = (code: number) => {
    high = Math.imul(high ^ code, 0x01000193);
    low = Math.imul(low ^ code, 0x01000193) ^ (high >>> 15);
  };
  for (const part of parts) {
    const prefix = `${part.length}:`;
    for (let index = 0; index < prefix.length; index++) mix(prefix.charCodeAt(index));
    for (let index = 0; index < part.length; index++) mix(part.charCodeAt(index));
    mix(0x7c);
  }
  return (high >>> 0).toString(16).padStart(8, '0') + (low >>> 0).toString(16).padStart(8, '0');
}
