import type { DomainCheckResponse, DomainVerification } from '@mirror/contract';

/** A record with a check answer's DNS state merged in; its own fields (kind, site, …) stay. */
export function applyCheck<R extends DomainVerification>(
  record: R,
  answer: DomainCheckResponse,
): R {
  return {
    ...record,
    status: answer.status,
    problem: answer.problem,
    reason: answer.reason,
    records: answer.records,
    isApex: answer.isApex,
    caa: answer.caa,
    checkedAt: answer.checkedAt,
    verifiedAt: answer.verifiedAt,
    nextCheckAt: answer.nextCheckAt,
  };
}
