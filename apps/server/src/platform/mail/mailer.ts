import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Where the recipient's reply goes (a form's sender), when not to the sender of the mail. */
  replyTo?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * With SMTP_URL set, mail goes through that server. Without, each message is written as an .eml file
 * under DATA_DIR/outbox and its path logged: the dev outbox is the only place reset links appear.
 */
export function createMailer(config: Config['mail'], log: FastifyBaseLogger): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(message) {
        const info = await transport.sendMail({ from: config.from, ...message });
        log.info({ messageId: info.messageId, subject: message.subject }, 'mail sent');
      },
    };
  }
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: config.from, ...message });
      await fs.mkdir(config.outboxDir, { recursive: true });
      const name = `${Date.now()}-${info.messageId.replace(/[^A-Za-z0-9]/g, '')}.eml`;
      const file = path.join(config.outboxDir, name);
      // Written beside the outbox, then moved in: whoever reads the outbox never sees half a mail.
      const partial = `${config.outboxDir}.partial-${name}`;
      await fs.writeFile(partial, info.message as Buffer);
      await fs.rename(partial, file);
      log.info({ file, subject: message.subject }, 'mail written to the outbox (no SMTP_URL set)');
    },
  };
}
