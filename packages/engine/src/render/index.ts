export {
  CHROMIUM_ARGS,
  launchChromium,
  openContext,
  setChromiumSandbox,
  settledLocally,
} from './chromium.js';
export {
  createRenderer,
  RENDER_DEFAULTS,
  type CapturedResponse,
  type OfflineFiles,
  type PageProbe,
  type RecordedResponse,
  type RenderCall,
  type Renderer,
  type RendererOptions,
  type RenderEvidence,
  type RenderResult,
} from './renderer.js';
export { runtimeShim, toCopyUrl, BLOCKED_SOCKET_PATH } from './runtime-shim.js';
export { RENDERED_ATTRIBUTE } from './in-page.js';
export { FORM_HANDLER_LIMITS, findFormHandlers, type RenderedForm } from './form-handlers.js';
export { describeEvidence, EVIDENCE_THRESHOLDS, showsEvidence } from './evidence.js';
export {
  BEHAVIOUR_DEFAULTS,
  runBehaviours,
  type BehaviourOptions,
  type BehaviourReport,
} from './behaviours.js';
