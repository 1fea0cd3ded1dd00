/** Stops what global-setup started. */
export default async function globalTeardown(): Promise<void> {
  const teardown = (globalThis as Record<string, unknown>).__prsTeardown as (() => Promise<void>) | undefined;
  await teardown?.();
}
