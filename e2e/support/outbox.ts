import fs from 'node:fs';
import path from 'node:path';

/** The e2e server runs without SMTP_URL, so its mail lands as .eml files in DATA_DIR/outbox. */
export function outboxDir(): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir)
    throw new Error('E2E_DATA_DIR is not set: run the specs through e2e/playwright.config.ts');
  return path.join(dataDir, 'outbox');
}

/** Waits for a mail to `to` and returns the link it contains that starts with `prefix`. */
export async function waitForMailLink(
  to: string,
  prefix: string,
  timeoutMs = 10_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const dir = outboxDir();
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).sort().reverse() : [];
    for (const file of files) {
      const mail = fs
        .readFileSync(path.join(dir, file), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      if (!mail.includes(`To: ${to}`)) continue;
      const start = mail.indexOf(prefix);
      if (start >= 0) return mail.slice(start).split(/[\s"<>]/)[0]!;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${to} with a link starting ${prefix}`);
}
