import { isRecord, jsonIndent } from './json.js';
import { RefSink } from './sink.js';
import type { Ref, RefKind, RefVisitor } from './types.js';

/**
 * Lists and rewrites the URLs of a web app manifest: start_url, scope, share_target.action (pages),
 * icons, screenshots, shortcuts (url and icons), file_handlers, protocol_handlers. Invalid JSON is
 * returned unchanged with no references. The text is re-serialized only when something changed.
 */
export function processWebManifest(
  json: string,
  manifestUrl: string,
  visit: RefVisitor,
): { json: string; refs: Ref[] } {
  const sink = new RefSink(visit);
  let data: unknown;
  try {
    data = JSON.parse(json.replace(/^\uFEFF/, ''));
  } catch {
    return { json, refs: [] };
  }
  if (!isRecord(data)) return { json, refs: [] };
  let changed = false;

  const field = (obj: Record<string, unknown>, key: string, kind: RefKind, context: string) => {
    const value = obj[key];
    if (typeof value !== 'string') return;
    const next = sink.visit(value, manifestUrl, kind, context);
    if (next !== undefined && next !== value) {
      obj[key] = next;
      changed = true;
    }
  };
  const each = (value: unknown, fn: (item: Record<string, unknown>) => void) => {
    if (Array.isArray(value)) for (const item of value) if (isRecord(item)) fn(item);
  };
  const icons = (value: unknown, context: string) =>
    each(value, (icon) => field(icon, 'src', 'image', context));

  field(data, 'start_url', 'page', 'manifest start_url');
  field(data, 'scope', 'page', 'manifest scope');
  icons(data.icons, 'manifest icons[].src');
  icons(data.screenshots, 'manifest screenshots[].src');
  each(data.shortcuts, (shortcut) => {
    field(shortcut, 'url', 'page', 'manifest shortcuts[].url');
    icons(shortcut.icons, 'manifest shortcuts[].icons[].src');
  });
  if (isRecord(data.share_target)) {
    field(data.share_target, 'action', 'page', 'manifest share_target.action');
  }
  each(data.file_handlers, (handler) => {
    field(handler, 'action', 'page', 'manifest file_handlers[].action');
    icons(handler.icons, 'manifest file_handlers[].icons[].src');
  });
  each(data.protocol_handlers, (handler) =>
    field(handler, 'url', 'page', 'manifest protocol_handlers[].url'),
  );

  return {
    json: changed ? JSON.stringify(data, null, jsonIndent(json)) : json,
    refs: sink.refs,
  };
}
