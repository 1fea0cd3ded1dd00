import { Client, Connection } from '@temporalio/client';

/** The client-side connection used by the API (and by tests) to reach Temporal. */
export async function connectTemporalClient(
  address: string,
  namespace: string,
): Promise<{ connection: Connection; client: Client }> {
  const connection = await Connection.connect({ address, connectTimeout: 10_000 });
  return { connection, client: new Client({ connection, namespace }) };
}

/** Waits until a Temporal frontend answers, up to timeoutMs. */
export async function waitForTemporal(address: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const connection = await Connection.connect({ address, connectTimeout: 2_000 });
      try {
        await connection.withDeadline(Date.now() + 2_000, () => connection.workflowService.getSystemInfo({}));
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`Temporal at ${address} did not answer within ${timeoutMs} ms: ${String(lastError)}`);
}
