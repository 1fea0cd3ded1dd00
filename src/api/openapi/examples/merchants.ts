import { CREATED_AT, MID, PID, SENSE_KEY, SITE_ID, TOKENIZATION_KEY_ID, UPDATED_AT } from './values';

/** Examples of merchant settings, sites, tokenization keys and the widget (docs/merchant-settings.md, docs/widget.md). */
export const settings = {
  mid: MID,
  defaultExpiryHours: 168,
  syncMitWindowHours: 24,
  mitEvaluation: 'async',
  authorizeCapability: false,
  technicalContactEmail: 'payments-team@shop.example',
  captureWindowMinutes: 5,
  processor: null,
};
export const settingsUpdate = { technicalContactEmail: 'payments-team@shop.example', defaultExpiryHours: 168 };

export const siteRequest = {
  name: 'Web checkout',
  allowedOrigins: ['https://shop.example', 'https://www.shop.example'],
};
export const site = { siteId: SITE_ID, mid: MID, ...siteRequest, createdAt: CREATED_AT };
export const siteList = { mid: MID, data: [site] };
export const siteUpdate = { allowedOrigins: ['https://shop.example', 'https://checkout.shop.example'] };
export const updatedSite = { ...site, ...siteUpdate };

const collection = {
  collect: { fingerprint: true, interactions: true, emailCapture: true, formScraping: false, routeChanges: true },
  selectors: { email: ['input[type="email"]', 'input[autocomplete="email"]', 'input[name="email"]'], forms: [] },
};
const widgetUrl = 'https://api.sandbox.example/widget/fc.js';
export const siteWidget = {
  mid: MID,
  siteId: SITE_ID,
  ...collection,
  widgetUrl,
  snippet: `<script async src="${widgetUrl}"></script>\n<script>fc('init', '${MID}', '${SITE_ID}');</script>`,
};
export const siteWidgetUpdate = { collect: { formScraping: true }, selectors: { forms: ['form#checkout'] } };
export const widgetConfig = {
  mid: MID,
  siteId: SITE_ID,
  ...collection,
  limits: { flushIntervalMs: 2000, maxSignalsPerBatch: 50, maxBodyBytes: 16384 },
};
export const signalsBatch = {
  v: 1,
  senseKey: SENSE_KEY,
  externalOrderId: 'shop-1001',
  signals: [{ kind: 'route', t: 1200, path: '/checkout', trigger: 'load' }],
};
export const signalsAccepted = { senseKey: SENSE_KEY, accepted: 1 };

export const tokenizationKeyRequest = { name: 'Web checkout' };
export const tokenizationKey = {
  id: TOKENIZATION_KEY_ID,
  mid: MID,
  name: 'Web checkout',
  status: 'active',
  keyHint: '...R2d8',
  createdAt: CREATED_AT,
  revokedAt: null,
};
export const tokenizationKeyWithKey = {
  ...tokenizationKey,
  key: 'tk_sandbox_Lw4hN8qT1vY6cB3mK9xZ2pF7jD5gS0aE4uI8oR2d8',
};
export const tokenizationKeyList = { mid: MID, data: [tokenizationKey] };
export const revokedTokenizationKey = { ...tokenizationKey, status: 'revoked', revokedAt: UPDATED_AT };

export const partnerRequest = { name: 'Acme Payments', apiKey: { name: 'Acme back end' } };
export const partnerWithKey = {
  pid: PID,
  name: 'Acme Payments',
  createdAt: CREATED_AT,
  apiKey: {
    id: 'f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9',
    clientId: 'f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9',
    ownerType: 'partner',
    pid: PID,
    mid: null,
    name: 'Acme back end',
    description: null,
    scopes: ['payments', 'api_keys', 'settings', 'webhooks'],
    status: 'active',
    secretHint: '...b7Rt',
    previousSecretExpiresAt: null,
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
    revokedAt: null,
    secret: 'sk_sandbox_Hq2wE5rT8yU1iO4pA7sD0fG3hJ6kL9zX2cV5bN8mb7Rt',
  },
};
