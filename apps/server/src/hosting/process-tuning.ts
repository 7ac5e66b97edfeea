import v8 from 'node:v8';

/**
 * V8 settings for a long-running server process; `main.ts` calls this once, before the app is
 * built.
 *
 * Allocation-site pretenuring is turned off. V8 watches where objects are allocated and, when a
 * site's objects tend to survive, allocates its later objects straight in the old generation.
 * Building the app creates many long-lived emitters, streams and header objects at the very sites
 * in Node's `http`/`stream` code that every request later uses, so request objects (requests,
 * responses, their listener tables) end up pretenured: the old generation fills at request rate,
 * a full mark-compact runs every fraction of a second, and each scavenge walks the old-to-new
 * pointers. Measured on the sites host under load (bench:hosting): ~5 µs of GC per request
 * instead of ~0.5, about a third fewer requests per second than the same handler in a fresh
 * process; with pretenuring off the app process serves as fast as a bare `node:http` server.
 * Objects that really are long-lived (parsed manifests, caches) are then copied once or twice by
 * the young-generation collector before they settle, a one-time cost.
 */
export function tuneProcessForServing(): void {
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
}
