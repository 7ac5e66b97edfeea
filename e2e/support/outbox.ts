import fs from 'node:fs';
import path from 'node:path';

/** The e2e server runs without SMTP_URL, so its mail lands as .eml files in DATA_DIR/outbox. */
export function outboxDir(): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir)
    throw new Error('E2E_DATA_DIR is not set: run the specs through e2e/playwright.config.ts');
  return path.join(dataDir, 'outbox');
}

/** The mails to `to` in the outbox, newest first, quoted-printable decoded. */
function mailsTo(to: string): string[] {
  const dir = outboxDir();
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).sort().reverse() : [];
  return files
    .map((file) =>
      fs
        .readFileSync(path.join(dir, file), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/(?:=[0-9A-F]{2})+/g, (m) =>
          Buffer.from(m.replace(/=/g, ''), 'hex').toString('utf8'),
        ),
    )
    .filter((mail) => mail.includes(`To: ${to}`));
}

/** Waits for a mail to `to` that `pick` finds something in, and answers what it found. */
async function waitForMail<T>(
  to: string,
  pick: (mail: string) => T | undefined,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const mail of mailsTo(to)) {
      const found = pick(mail);
      if (found !== undefined) return found;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${to} ${what}`);
}

/** Waits for a mail to `to` and returns the link it contains that starts with `prefix`. */
export function waitForMailLink(to: string, prefix: string, timeoutMs = 10_000): Promise<string> {
  return waitForMail(
    to,
    (mail) => {
      const start = mail.indexOf(prefix);
      return start >= 0 ? mail.slice(start).split(/[\s"<>]/)[0]! : undefined;
    },
    timeoutMs,
    `with a link starting ${prefix}`,
  );
}

/** Waits for a mail to `to` that contains `text`; answers the whole mail, decoded. */
export function waitForMailWith(to: string, text: string, timeoutMs = 15_000): Promise<string> {
  return waitForMail(
    to,
    (mail) => (mail.includes(text) ? mail : undefined),
    timeoutMs,
    `with "${text}"`,
  );
}
