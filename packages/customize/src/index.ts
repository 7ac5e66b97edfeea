/** AI customization: edit plans applied by splicing, page outlines, the built-in instruction engine. */
export { applyPlan } from './apply-plan.js';
export { colorNameInWords } from './colors.js';
export { describePlan } from './describe.js';
export { uploadPath } from './images.js';
export { INSTRUCTION_LIMITS, parseInstructions, splitInstructions } from './instructions.js';
export { NEWSLETTER_FORM } from './instruction-rules-elements.js';
export type { ParsedInstructions, Suggestion } from './instructions.js';
export { outlinePage } from './outline.js';
export type { OutlineOptions, OutlineSection, PageOutline } from './outline.js';
export type { PaletteEntry } from './palette.js';
export { parseHtml, VOID_ELEMENTS } from './html.js';
export { SelectorError, checkSelector, selectAll } from './selector.js';
export type * from './types.js';
