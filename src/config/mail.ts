import { z } from 'zod';
import { type EnvOf, optionalUrl } from './env';

/** Outgoing mail (sign-up and alerts): an SMTP server, or none. */

export const mailEnv = {
  SMTP_URL: optionalUrl.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  MAIL_FROM: z.string().min(3).default('Payment Rescue <no-reply@payment-rescue.invalid>'),
};

export interface MailConfig {
  smtpUrl: string | undefined;
  from: string;
}

export function mailSettings(e: EnvOf<typeof mailEnv>): MailConfig {
  return { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM };
}
