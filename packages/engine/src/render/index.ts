export { CHROMIUM_ARGS, launchChromium, openContext, settledLocally } from './chromium.js';
export {
  createRenderer,
  RENDER_DEFAULTS,
  type CapturedResponse,
  type RecordedResponse,
  type Renderer,
  type RendererOptions,
  type RenderEvidence,
  type RenderResult,
} from './renderer.js';
export { runtimeShim, toCopyUrl, BLOCKED_SOCKET_PATH } from './runtime-shim.js';
export { RENDERED_ATTRIBUTE } from './in-page.js';
export { describeEvidence, EVIDENCE_THRESHOLDS, showsEvidence } from './evidence.js';
