/**
 * A bounded cache with a weight budget (bytes, entries…) and second-chance eviction: a hit only
 * sets a flag (no reordering on the hot path); eviction walks from the oldest entry, gives flagged
 * entries one more round and drops the first unflagged one. Close to LRU at a fraction of the cost.
 */
interface Slot<V> {
  value: V;
  weight: number;
  hit: boolean;
}

export class SiteCache<K, V> {
  private readonly slots = new Map<K, Slot<V>>();
  private total = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly maxEntries = Number.POSITIVE_INFINITY,
  ) {}

  get size(): number {
    return this.slots.size;
  }

  get weight(): number {
    return this.total;
  }

  get(key: K): V | undefined {
    const slot = this.slots.get(key);
    if (slot === undefined) return undefined;
    slot.hit = true;
    return slot.value;
  }

  has(key: K): boolean {
    return this.slots.has(key);
  }

  /** Stores `value`; a value heavier than the whole budget is not stored (returns false). */
  set(key: K, value: V, weight = 1): boolean {
    this.delete(key);
    if (weight > this.maxWeight || this.maxEntries < 1) return false;
    this.slots.set(key, { value, weight, hit: false });
    this.total += weight;
    this.evict(key);
    return true;
  }

  delete(key: K): boolean {
    const slot = this.slots.get(key);
    if (slot === undefined) return false;
    this.slots.delete(key);
    this.total -= slot.weight;
    return true;
  }

  /** Drops every entry whose key or value matches. */
  deleteWhere(predicate: (key: K, value: V) => boolean): void {
    for (const [key, slot] of this.slots) {
      if (predicate(key, slot.value)) this.delete(key);
    }
  }

  clear(): void {
    this.slots.clear();
    this.total = 0;
  }

  /** Evicts down to the budget; `added` (the entry just stored) is never the one dropped. */
  private evict(added: K): void {
    while (this.total > this.maxWeight || this.slots.size > this.maxEntries) {
      const oldest = this.slots.entries().next();
      if (oldest.done) return;
      const [key, slot] = oldest.value;
      this.slots.delete(key);
      if (slot.hit || key === added) {
        // Second chance: move to the young end, unflagged.
        slot.hit = false;
        this.slots.set(key, slot);
      } else {
        this.total -= slot.weight;
      }
    }
  }
}
