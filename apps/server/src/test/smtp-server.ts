import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as the SMTP server received it: its envelope recipients and its raw message. */
export interface ReceivedMail {
  to: string[];
  data: string;
}

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>`, or with `user:password@` when a login is required. */
  url: string;
  port: number;
  received: ReceivedMail[];
  /** The mails to this address, in the order they came. */
  to(address: string): ReceivedMail[];
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 that keeps every message, for the tests of what the app mails
 * (SMTP_URL). Without `login` anyone may send; with it, only that user and password.
 */
export async function startSmtpServer(login?: {
  user: string;
  password: string;
}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    ...(login
      ? {
          allowInsecureAuth: true,
          onAuth(auth, _session, callback) {
            if (auth.username === login.user && auth.password === login.password)
              callback(null, { user: 1 });
            else callback(new Error('Invalid username or password'));
          },
        }
      : { authOptional: true }),
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  const auth = login
    ? `${encodeURIComponent(login.user)}:${encodeURIComponent(login.password)}@`
    : '';
  return {
    url: `smtp://${auth}127.0.0.1:${port}`,
    port,
    received,
    to: (address) => received.filter((mail) => mail.to.includes(address)),
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

/** A message's text with its quoted-printable soft breaks and escapes decoded. */
export function decodedMail(data: string): string {
  return data
    .replace(/=\r?\n/g, '')
    .replace(/(?:=[0-9A-F]{2})+/g, (m) => Buffer.from(m.replace(/=/g, ''), 'hex').toString('utf8'));
}
