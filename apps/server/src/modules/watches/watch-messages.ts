import type { WatchReason } from '@mirror/contract';
import { escapeUTF8 } from 'entities';
import type { MailMessage } from '../../platform/mail/mailer.js';

/**
 * What watches tell, in English (mail, webhook bodies and the Atom feed): one line per reason,
 * and the mails of a hit (at once) and of a day's hits (the digest). Every one links to its report.
 */

const words = (n: number | undefined) =>
  n === undefined ? '' : ` (${n} ${n === 1 ? 'word' : 'words'} changed)`;

export function describeReason(reason: WatchReason): string {
  switch (reason.kind) {
    case 'page-changed':
      return `${reason.path} changed${words(reason.words)}`;
    case 'page-added':
      return `${reason.path} was added`;
    case 'page-removed':
      return `${reason.path} was removed`;
    case 'part-changed':
      return reason.before === undefined
        ? `The watched part of ${reason.path} appeared: “${reason.after ?? ''}”`
        : `The watched part of ${reason.path} changed${words(reason.words)}: “${reason.before}” → “${reason.after ?? ''}”`;
    case 'part-missing':
      return `The watched part of ${reason.path} is gone (it read “${reason.before ?? ''}”)`;
    case 'keyword-appeared':
      return `“${reason.keyword ?? ''}” appeared on ${reason.path}`;
    case 'keyword-disappeared':
      return `“${reason.keyword ?? ''}” disappeared from ${reason.path}`;
  }
}

export interface HitMail {
  siteName: string;
  watchName: string;
  versionNumber: number;
  summary: string;
  reasons: WatchReason[];
  reportUrl: string;
}

function page(paragraphs: string[], lists: string[][]): string {
  const body = paragraphs
    .map((p, i) => {
      const list = lists[i];
      const items = list?.length
        ? `<ul>${list.map((item) => `<li>${escapeUTF8(item)}</li>`).join('')}</ul>`
        : '';
      return `<p>${escapeUTF8(p)}</p>${items}`;
    })
    .join('\n');
  return `<!doctype html><html lang="en" dir="ltr"><body style="font-family:system-ui,sans-serif;line-height:1.6;color:#1d2233">\n${body}</body></html>`;
}

export function buildHitEmail(recipient: { to: string; name: string }, hit: HitMail): MailMessage {
  const lines = hit.reasons.map(describeReason);
  const text = [
    `Hi ${recipient.name},`,
    `Your watch “${hit.watchName}” on ${hit.siteName} was met by version ${hit.versionNumber}: ${hit.summary}`,
    lines.map((l) => `- ${l}`).join('\n'),
    `See the change report: ${hit.reportUrl}`,
  ].join('\n\n');
  return {
    to: recipient.to,
    subject: `${hit.siteName} changed: ${hit.watchName}`,
    text,
    html: page(
      [
        `Hi ${recipient.name},`,
        `Your watch “${hit.watchName}” on ${hit.siteName} was met by version ${hit.versionNumber}: ${hit.summary}`,
        `See the change report: ${hit.reportUrl}`,
      ],
      [[], lines],
    ),
  };
}

export interface DigestEntry {
  siteName: string;
  watchName: string;
  reasons: WatchReason[];
  reportUrl: string;
}

export function buildDigestEmail(
  recipient: { to: string; name: string },
  entries: DigestEntry[],
): MailMessage {
  const heading = `${entries.length === 1 ? 'One watch was' : `${entries.length} watches were`} met since the last digest.`;
  const blocks = entries.map((e) => ({
    title: `${e.siteName}, “${e.watchName}”: ${e.reportUrl}`,
    lines: e.reasons.map(describeReason),
  }));
  const text = [
    `Hi ${recipient.name},`,
    heading,
    ...blocks.map((b) => [b.title, ...b.lines.map((l) => `- ${l}`)].join('\n')),
  ].join('\n\n');
  return {
    to: recipient.to,
    subject: `Your Mirror watches: ${entries.length} ${entries.length === 1 ? 'change' : 'changes'}`,
    text,
    html: page(
      [`Hi ${recipient.name},`, heading, ...blocks.map((b) => b.title)],
      [[], [], ...blocks.map((b) => b.lines)],
    ),
  };
}
