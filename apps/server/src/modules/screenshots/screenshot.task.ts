/**
 * A screenshot in a sandboxed process (`platform/sandbox`): of a live website (reference cards) or
 * of a stored copy (version thumbnails). Chromium and everything a page makes it do stay out of
 * the process that serves the API and the sites.
 */
import { readBlob, type Manifest } from '@mirror/engine';
import { createBrowserLauncher } from '../../platform/browser/browser-launcher.js';
import { safeLookupOptions, type NetSettings } from '../../platform/sandbox/net-settings.js';
import { sandboxTask, type SandboxContext } from '../../platform/sandbox/sandbox.js';
import { captureUrl } from './capture-url.js';
import { documentFraming, type DocumentFraming } from './framing.js';
import { captureVersionThumbnail } from './version-thumbnail.js';

export type ScreenshotInput = { chromiumPath: string; timeoutMs?: number } & (
  { kind: 'url'; url: string; net: NetSettings } | { kind: 'version'; manifestHash: string }
);

export interface ScreenshotOutput {
  /** The JPEG's bytes. */
  image: Uint8Array;
  /** The framing headers of the page drawn (a live website only; null for a version). */
  framing: DocumentFraming | null;
}

export async function run(
  input: ScreenshotInput,
  context: SandboxContext,
): Promise<ScreenshotOutput> {
  const browser = createBrowserLauncher({ chromiumPath: input.chromiumPath });
  const timeout = input.timeoutMs === undefined ? {} : { timeoutMs: input.timeoutMs };
  try {
    if (input.kind === 'url') {
      let framing: DocumentFraming = { xFrameOptions: null, contentSecurityPolicy: null };
      const image = await captureUrl(input.url, {
        browser,
        net: safeLookupOptions(input.net),
        onDocument: (headers) => {
          framing = documentFraming(headers);
        },
        ...timeout,
      });
      return { image, framing };
    }
    const manifest = JSON.parse(
      (await readBlob(context.blobs, input.manifestHash)).toString('utf8'),
    ) as Manifest;
    const image = await captureVersionThumbnail(manifest, context.blobs, { browser, ...timeout });
    return { image, framing: null };
  } finally {
    await browser.close();
  }
}

export const screenshotTask = sandboxTask(import.meta.url, run);
