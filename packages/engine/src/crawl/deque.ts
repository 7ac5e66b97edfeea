/**
 * A double-ended queue on a growable ring buffer: push, shift and unshift in constant time.
 * The crawler's lanes hold every discovered URL; `Array.shift` is linear in the queue's length, so
 * draining a queue of hundreds of thousands of links with it takes quadratic time.
 */
export class Deque<T> {
  private items: (T | undefined)[] = new Array<T | undefined>(16);
  private head = 0;
  private size = 0;

  get length(): number {
    return this.size;
  }

  push(item: T): void {
    if (this.size === this.items.length) this.grow();
    this.items[(this.head + this.size) % this.items.length] = item;
    this.size++;
  }

  unshift(item: T): void {
    if (this.size === this.items.length) this.grow();
    this.head = (this.head - 1 + this.items.length) % this.items.length;
    this.items[this.head] = item;
    this.size++;
  }

  shift(): T | undefined {
    if (this.size === 0) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head = (this.head + 1) % this.items.length;
    this.size--;
    return item;
  }

  /** Removes and returns everything, first to last. */
  clear(): T[] {
    const out: T[] = [];
    for (let item = this.shift(); item !== undefined; item = this.shift()) out.push(item);
    this.items = new Array<T | undefined>(16);
    this.head = 0;
    return out;
  }

  private grow(): void {
    const next = new Array<T | undefined>(this.items.length * 2);
    for (let i = 0; i < this.size; i++) next[i] = this.items[(this.head + i) % this.items.length];
    this.items = next;
    this.head = 0;
  }
}
