import fs from 'node:fs';
import path from 'node:path';
import { outboxDir } from './outbox';

/** Waits for a mail to `to` whose text contains every one of `parts`; returns the decoded mail. */
export async function waitForMail(
  to: string,
  parts: string[],
  timeoutMs = 10_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const dir = outboxDir();
    const files = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    for (const file of files) {
      // Quoted-printable soft line breaks and `=` escapes, as the .eml files carry them.
      const mail = fs
        .readFileSync(path.join(dir, file), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      if (mail.includes(`To: ${to}`) && parts.every((part) => mail.includes(part))) return mail;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${to} containing ${parts.join(', ')}`);
}
