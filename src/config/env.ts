import { z } from 'zod';

/** Schema pieces shared by the configuration's concerns, and the error every bad variable ends in. */

export const port = z.coerce.number().int().min(0).max(65535);

/** An optional string where empty or blank means unset (compose files often pass `VAR=`). */
export const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/** The parsed variables of one concern's schema shape. */
export type EnvOf<Shape extends z.ZodRawShape> = z.infer<z.ZodObject<Shape>>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}
