// Sending e-mail through SMTP_URL with nodemailer. The URL carries a password: no message this
// module gives out contains it (nodemailer's errors name the host and the SMTP answer, never the
// credentials, and the words below are built from neither).
import nodemailer from 'nodemailer';

/** A file inside the message that its HTML shows by `cid:` (a logo), so no mail program has to fetch it. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
  cid: string;
}

export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
}

export interface Mailer {
  /** Sends it; throws MailError, with words fit to show, when the server refused or could not be reached. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export class MailError extends Error {
  override name = 'MailError';
}

/** How long connecting, greeting and each SMTP step may take. */
const TIMEOUT_MS = 15_000;

/** What went wrong, in words without the URL (nor its password). */
function words(error: unknown): string {
  const e = error as { code?: string; responseCode?: number; response?: string; message?: string };
  if (e.code === 'EAUTH') return 'The mail server refused SMTP_URL’s user name or password.';
  if (typeof e.responseCode === 'number' && typeof e.response === 'string')
    return `The mail server refused the message: ${e.response.slice(0, 300)}`;
  switch (e.code) {
    case 'ECONNECTION':
    case 'ESOCKET':
    case 'ECONNREFUSED':
      return 'The mail server could not be reached (SMTP_URL).';
    case 'ETIMEDOUT':
      return 'The mail server did not answer in time.';
    case 'EDNS':
      return 'The mail server’s host name could not be resolved (SMTP_URL).';
    case 'ETLS':
      return 'The mail server’s TLS connection failed.';
    default:
      return 'The e-mail could not be sent.';
  }
}

/** A mailer over SMTP_URL, from MAIL_FROM. */
export function createMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
    // Never the message or the credentials in a log.
    logger: false,
    debug: false,
  });
  return {
    async send(message) {
      try {
        await transport.sendMail({
          from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          attachments: message.attachments ?? [],
        });
      } catch (error) {
        throw new MailError(words(error));
      }
    },
    close: () => transport.close(),
  };
}
