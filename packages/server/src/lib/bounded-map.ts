/**
 * Sets `key` in `map` as its newest entry, then lets the oldest entries go while the map
 * holds more than `max`: the eviction of the in-memory caches (insertion order is age).
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) map.delete(map.keys().next().value as K);
}
