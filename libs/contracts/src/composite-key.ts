/**
 * One key made of several names (customer, instance, id, ...), for maps and hashes. Joined by NUL, which validated
 * names and ids never contain, so ('a', 'b c') and ('a b', 'c') cannot collide.
 */
export function compositeKey(...parts: readonly string[]): string {
  return parts.join('\u0000');
}
