import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '../logger';

export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>;
}

/**
 * Mail through SMTP (nodemailer). Without SMTP_URL (local `npm start`), messages are written to
 * the log instead of being sent, so nothing is silently lost.
 */
export function createMailer(config: { smtpUrl: string | undefined; from: string }, logger: Logger): Mailer {
  const transport: Transporter = config.smtpUrl
    ? nodemailer.createTransport(config.smtpUrl)
    : nodemailer.createTransport({ jsonTransport: true });
  return {
    async send(message) {
      await transport.sendMail({ from: config.from, ...message });
      if (!config.smtpUrl)
        logger.warn({ to: message.to, subject: message.subject }, 'mail not sent (SMTP_URL unset); logged instead');
    },
  };
}
