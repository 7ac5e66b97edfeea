import type { DnsRecord } from '@mirror/contract';

/** Why an apex domain gets no CNAME (an i18n key), worded for the records it gets: A/AAAA or ALIAS. */
export function apexNote(records: readonly DnsRecord[]): string {
  return records.some((record) => record.type === 'ALIAS')
    ? 'domains.records.apexAlias'
    : 'domains.records.apex';
}
