/**
 * The edit plan is the contract's (`@mirror/contract`, validated there with zod by the server); the
 * engine imports only its types, so no schema code runs here.
 */
export type {
  ChangeColorOp,
  ChangeFontOp,
  ColorRole,
  EditOp,
  EditOpType,
  EditPlan,
  FontRole,
  HideElementOp,
  InsertHtmlOp,
  InsertPosition,
  PageEditOp,
  RemoveElementOp,
  ReplaceImageOp,
  ReplaceTextOp,
  RestorePageOp,
  RewriteCopyOp,
  SetAttributeOp,
  SetDescriptionOp,
  SetFormRecipientOp,
  SetTextOp,
  SetTitleOp,
  UploadedImage,
} from '@mirror/contract';
import type { EditOpType } from '@mirror/contract';

/** One HTML or CSS document of a version. */
export interface SiteDocument {
  /** Copy path, e.g. `/`, `/about`, `/css/site.css`. */
  path: string;
  contentType: string;
  text: string;
}

/** A file the caller adds to the version (an uploaded image the plan refers to). */
export interface PlanAsset {
  path: string;
  hash: string;
  contentType: string;
}

export interface OpReport {
  index: number;
  op: EditOpType;
  /** Places the op matched (text occurrences, elements, declarations…). */
  matches: number;
  /** Documents where it matched. */
  documents: number;
  /** Documents it changed (a match may already have the wanted value). */
  changedDocuments: number;
  /** One line for the user, e.g. "Replaced 'Acme' with 'Globex' (12 places on 4 pages)". */
  summary: string;
  /** Why the op could not be applied (bad selector, unknown colour…); it changed nothing. */
  error?: string;
  /** Something the user should know (a role that was not found, skipped matches…). */
  notes?: string[];
}

export interface ApplyPlanResult {
  /** The documents the plan changed, with their new text; untouched documents are left out. */
  changed: SiteDocument[];
  /** Files to add to the version for the new documents to work (uploaded images). */
  assets: PlanAsset[];
  report: OpReport[];
  /** Indexes of ops that matched nothing (or failed). */
  unmatched: number[];
  /** The human diff summary, one line per op. */
  summary: string[];
}
