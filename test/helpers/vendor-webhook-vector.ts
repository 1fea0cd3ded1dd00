/**
 * The signed delivery the commercial service publishes in its Node sample client
 * (FlexCharge/FlexCharge.NodeJs.SampleClient, src/controllers/SampleWebhookController.ts), restated
 * as data: a real order.completed, its headers as sent, the endpoint host and the signing secret.
 * `payload` is the exact body text (255 bytes): one character more or less and nothing matches.
 */
export const vendorVector = {
  secretBase64: 'XRmKBxG5uvt1qWzqvp+T6CAbTo0MB89GTxXZD5cHA56RP7Mj4NbnHQOR1Y8uorUU9YQz8ujaVRUdm9vTSkPZSw==',
  host: 'fctestwebhook.free.beeceptor.com',
  payload:
    '{"Event":"order.completed","TimeStamp":"2023-03-20T17:16:40.898703Z","EventData":null,' +
    '"ExternalOrderId":"a9735210-1349-49bf-bfde-b737dd07872a","OrderId":"ac9674ed-cbfe-49aa-bc8b-eb1d2b74c429",' +
    '"ConfirmationId":"22ACD1D9","IsTestMode":true,"IsResent":false}',
  headers: {
    'x-fc-nonce': '5f1c2de28a76457c9cb79d1740f2260a',
    'x-fc-date': 'Mon, 20 Mar 2023 17:16:40 GMT',
    'x-fc-content-sha512': 'pLs0Op5VWqQM3ZIumqC2NP6MDqcnwFN1znp/oCuw9LcYd8PtvLC8ProyPg8ZDadsRc36NskT3QGKn/PkNqwWfg==',
    'x-fc-authorization':
      'HMAC-SHA512 SignedHeaders=x-fc-nonce;x-fc-date;host;x-fc-content-sha512&Signature=' +
      '+HXN8ZewgINLk+uC/UI92HSWmLK7gZOECPxOGEM91ATyfyzScMF/+osEK5B0UjO7OFqahDvesSo8jmUWMZtQnA==',
    'x-fc-signature': 'SbzcEwAKsViWqrB8+suZMjOdadswbUjLHtIKjDQJYle31xbB8Vr0pVTDaNP28/y+NDynpyFyKKnXmWZy8uJVig==',
  },
  /** x-fc-date as a point in time: the clock to pin a verifier to. */
  sentAt: new Date('2023-03-20T17:16:40Z'),
} as const;
