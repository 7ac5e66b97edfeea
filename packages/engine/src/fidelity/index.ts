export { checkFidelity, FIDELITY_DEFAULTS } from './check.js';
export { serveCopyFolder, type CopyServer } from './copy-server.js';
export {
  sampleCandidate,
  sampleCandidates,
  sampleManifest,
  selectSample,
  type SampleCandidate,
  type SampledPage,
} from './sample.js';
export { mergeManifests, recapturePages, type RecaptureOptions } from './recapture.js';
export { fidelityReportData, formatFidelitySummary } from './summary.js';
export {
  belowThreshold,
  fidelityScore,
  FIDELITY_SCRIPT_ERRORS,
  FIDELITY_THRESHOLDS,
  summarizeFidelity,
} from './verdict.js';
export { textSimilarity } from './compare.js';
export { fitShotsToBudget } from './shot-budget.js';
export * from './types.js';
