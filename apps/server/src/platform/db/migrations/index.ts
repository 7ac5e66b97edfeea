import type { Migration } from 'kysely';
import * as m0001 from './0001-users-sessions.js';
import * as m0002 from './0002-accounts.js';
import * as m0003 from './0003-user-settings.js';
import * as m0004 from './0004-sites-versions-jobs.js';
import * as m0005 from './0005-customizations.js';
import * as m0006 from './0006-screenshots.js';
import * as m0007 from './0007-version-thumbnails.js';
import * as m0008 from './0008-payments.js';
import * as m0009 from './0009-domains.js';
import * as m0010 from './0010-login-throttle-by-address.js';
import * as m0011 from './0011-domain-claims.js';
import * as m0012 from './0012-plan-downgrade.js';
import * as m0013 from './0013-version-blobs.js';
import * as m0014 from './0014-draft-edits.js';
import * as m0015 from './0015-screenshot-frameable.js';
import * as m0016 from './0016-visit-analytics.js';
import * as m0017 from './0017-site-titles.js';
import * as m0018 from './0018-run-progress.js';
import * as m0019 from './0019-fidelity-reports.js';
import * as m0020KeptBlobs from './0020-kept-blobs.js';
import * as m0021FidelityProgress from './0021-fidelity-progress.js';
import * as m0022RewritePayments from './0022-rewrite-payments.js';
import * as m0023ChangeReports from './0023-change-reports.js';
import * as m0024Watches from './0024-watches.js';
import * as m0025VisualDiffs from './0025-visual-diffs.js';
import * as m0026Forms from './0026-forms.js';
import * as m0027FormRecipients from './0027-form-recipients.js';
import * as m0028ArchiveImports from './0028-archive-imports.js';

/**
 * Every migration, in order. Add a file `NNNN-what.ts` exporting `up` (and `down`) and list it here:
 * the list is static so the compiled server needs no directory scanning. Never edit a migration that
 * has shipped; add a new one.
 */
export const migrations: Record<string, Migration> = {
  '0001-users-sessions': m0001,
  '0002-accounts': m0002,
  '0003-user-settings': m0003,
  '0004-sites-versions-jobs': m0004,
  '0005-customizations': m0005,
  '0006-screenshots': m0006,
  '0007-version-thumbnails': m0007,
  '0008-payments': m0008,
  '0009-domains': m0009,
  '0010-login-throttle-by-address': m0010,
  '0011-domain-claims': m0011,
  '0012-plan-downgrade': m0012,
  '0013-version-blobs': m0013,
  '0014-draft-edits': m0014,
  '0015-screenshot-frameable': m0015,
  '0016-visit-analytics': m0016,
  '0017-site-titles': m0017,
  '0018-run-progress': m0018,
  '0019-fidelity-reports': m0019,
  '0020-kept-blobs': m0020KeptBlobs,
  '0021-fidelity-progress': m0021FidelityProgress,
  '0022-rewrite-payments': m0022RewritePayments,
  '0023-change-reports': m0023ChangeReports,
  '0024-watches': m0024Watches,
  '0025-visual-diffs': m0025VisualDiffs,
  '0026-forms': m0026Forms,
  '0027-form-recipients': m0027FormRecipients,
  '0028-archive-imports': m0028ArchiveImports,
};
