import { DOMAIN_CLAIM_EXPIRY_DAYS, type DomainKind } from '@mirror/contract';
import { escapeUTF8 } from 'entities';
import type { MailMessage } from '../../platform/mail/mailer.js';

/**
 * The mails about a domain claim that ended (issue 18): another account proved ownership first, it
 * was not verified in time, or its verification no longer held when another account proved
 * ownership (issue 30). English only for now.
 */

interface Recipient {
  to: string;
  name: string;
}

function message(
  recipient: Recipient,
  subject: string,
  paragraphs: string[],
  appUrl: string,
): MailMessage {
  const all = [`Hi ${recipient.name},`, ...paragraphs, `Your domains: ${appUrl}/dashboard`];
  const html = `<!doctype html><html lang="en" dir="ltr"><body style="font-family:system-ui,sans-serif;line-height:1.6;color:#1d2233">
${all.map((p) => `<p>${escapeUTF8(p)}</p>`).join('\n')}</body></html>`;
  return { to: recipient.to, subject, text: all.join('\n\n'), html };
}

const whatGoes = (kind: DomainKind) =>
  kind === 'parked'
    ? 'Its parking page was removed with it.'
    : 'It no longer points at your site; the site itself is unchanged.';

/** To the account whose unverified claim was removed because another account proved ownership. */
export function buildClaimTakenEmail(
  recipient: Recipient,
  input: { domain: string; kind: DomainKind; appUrl: string },
): MailMessage {
  return message(
    recipient,
    `${input.domain} was removed from your Mirror account`,
    [
      `You added ${input.domain} to your Mirror account, but it was never verified. Another Mirror account has now proved that it controls the domain: the TXT record we asked it to create was found in the domain's DNS. So ${input.domain} now belongs to that account and was removed from yours. ${whatGoes(input.kind)}`,
      `If ${input.domain} is yours, someone else can change its DNS records: check who has access at your DNS provider.`,
    ],
    input.appUrl,
  );
}

/**
 * To the account whose verified domain moved to another account: its verification no longer held
 * (its TXT record gone, nothing pointing at Mirror) and the other account proved control of DNS.
 */
export function buildVerifiedClaimTakenEmail(
  recipient: Recipient,
  input: { domain: string; kind: DomainKind; appUrl: string },
): MailMessage {
  return message(
    recipient,
    `${input.domain} was moved to another Mirror account`,
    [
      `You verified ${input.domain} on Mirror, but its DNS no longer points to Mirror and no longer has your verification TXT record. Another Mirror account has now proved that it controls the domain: the TXT record we asked it to create was found in the domain's DNS. So ${input.domain} now belongs to that account and was removed from yours. ${whatGoes(input.kind)}`,
      `If ${input.domain} is still yours, someone else can change its DNS records: check who has access at your DNS provider, then add the domain again with its TXT record.`,
    ],
    input.appUrl,
  );
}

/** To the account whose claim was not verified within DOMAIN_CLAIM_EXPIRY_DAYS. */
export function buildClaimExpiredEmail(
  recipient: Recipient,
  input: { domain: string; kind: DomainKind; appUrl: string },
): MailMessage {
  return message(
    recipient,
    `${input.domain} was not verified and was removed`,
    [
      `You added ${input.domain} to your Mirror account ${DOMAIN_CLAIM_EXPIRY_DAYS} days ago, but its DNS records were never verified, so we removed it: an unverified domain is not held for longer. ${whatGoes(input.kind)}`,
      `You can add ${input.domain} again at any time. Create the DNS records shown for it (including the TXT record) and it is verified at the next check.`,
    ],
    input.appUrl,
  );
}
