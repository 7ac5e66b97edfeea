export {
  bodyHash,
  compareVersions,
  pagesByPath,
  summarize,
  type CompareOptions,
  type VersionFiles,
} from './compare-versions.js';
export { digestPage, type PageDigest } from './page-digest.js';
export {
  isTrackingParam,
  maskVolatile,
  normalizeLink,
  normalizePath,
  normalizeQuery,
  tokenize,
  type Token,
} from './noise.js';
export {
  changesLook,
  PAGES_TO_COMPARE_LIMITS,
  pagesToCompare,
  type PagesToCompareOptions,
} from './pages-to-compare.js';
export { diffWords, hunksOf, type WordEdit } from './word-diff.js';
export {
  compareRenderedPages,
  type VisualDiffOptions,
  type VisualDiffPage,
  type VisualDiffReport,
  type VisualDiffShots,
} from './visual-diff.js';
