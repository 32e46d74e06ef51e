/**
 * Non-reversible identifiers for values that must not be kept or shown in the clear (credentials).
 */

const FNV_OFFSET_BASIS = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;

/**
 * A 64-bit FNV-1a hash (16 hex digits) of the given parts, for keying in-memory registries by credentials
 * without storing the credentials. Synchronous and dependency-free; not meant as a cryptographic commitment.
 */
export function fingerprint(...parts: readonly string[]): string {
  let hash = FNV_OFFSET_BASIS;
  const bytes = new TextEncoder().encode(parts.map((part) => `${part.length}:${part}`).join('|'));
  for (const byte of bytes) {
    hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & MASK_64;
  }
  return hash.toString(16).padStart(16, '0');
}
