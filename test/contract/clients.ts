import { randomUUID } from 'node:crypto';
import { type GatewayAction, judge, tokenVerdict, type Verdict } from './judge';

/**
 * The two real clients, restated as the wire requests they build (no code of theirs is copied):
 * ActiveMerchant's FlexChargeGateway (what Spreedly merchants run) and the vendor's Node sample
 * client (FlexCharge/FlexCharge.NodeJs.SampleClient). Only the base URL differs from production.
 */

export interface Card {
  number: string;
  month: number;
  year: number;
  verificationValue?: string;
  firstName: string;
  lastName: string;
  brand: string;
}

export interface Address {
  name: string;
  address1: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  phone: string;
}

/** What a merchant passes to the gateway's purchase / authorize (its option names). */
export interface GatewayOptions {
  orderId?: string | null;
  idempotencyKey?: string;
  isDeclined?: boolean;
  senseKey?: string | null;
  email?: string;
  phone?: string;
  description?: string;
  responseCode?: string;
  responseCodeSource?: string;
  avsResultCode?: string;
  cvvResultCode?: string;
  cavvResultCode?: string;
  timezoneUtcOffset?: string | number;
  billingAddress?: Address;
  shippingAddress?: Address;
  isMit?: boolean;
  isRecurring?: boolean;
  mitExpiryDateUtc?: string;
  threeDSecure?: Record<string, string>;
  extraData?: string;
  currency?: string;
  async?: boolean;
}

export interface Exchange {
  method: string;
  path: string;
  request: Record<string, unknown>;
  status: number;
  text: string;
  verdict: Verdict;
}

/** ActiveMerchant's FlexChargeGateway as the service sees it: same paths, bodies and token handling. */
export class ActiveMerchantLike {
  accessToken: string | undefined;
  tokenExpires = 0;
  /** Every HTTP exchange, token requests included, in order. */
  readonly wire: Array<{ path: string; status: number; request: unknown; text: string }> = [];

  constructor(
    private readonly baseUrl: string,
    private readonly credentials: { appKey: string; appSecret: string; siteId: string; mid: string },
  ) {}

  purchase(money: number, payment: Card | string, options: GatewayOptions = {}, transactionType = 'Purchase') {
    const post: Record<string, unknown> = { transactionType };
    post.siteId = this.credentials.siteId;
    post.mid = this.credentials.mid;
    post.isDeclined = options.isDeclined ?? true;
    post.orderId = options.orderId ?? null;
    post.idempotencyKey = options.idempotencyKey ?? randomUUID();
    post.senseKey = options.senseKey ?? null;
    post.transaction = compact({
      id: options.orderId,
      dynamicDescriptor: options.description,
      timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      timezoneUtcOffset: options.timezoneUtcOffset,
      amount: money,
      currency: options.currency ?? 'USD',
      responseCode: options.responseCode,
      responseCodeSource: options.responseCodeSource ?? '',
      avsResultCode: options.avsResultCode,
      cvvResultCode: options.cvvResultCode,
      cavvResultCode: options.cavvResultCode,
      cardNotPresent: typeof payment === 'string' ? false : !payment.verificationValue,
    });
    if (options.isMit !== undefined) {
      post.isMIT = options.isMit;
      // The gateway's cast_bool: anything but false, 0, '', '0', 'f', 'false' (nil included) is true.
      post.isRecurring = options.isRecurring !== false;
      post.expiryDateUtc = options.mitExpiryDateUtc ?? null;
    }
    const address = options.billingAddress;
    post.paymentMethod =
      typeof payment === 'string'
        ? { Token: true, cardNumber: payment }
        : compact({
            holderName: `${payment.firstName} ${payment.lastName}`,
            cardType: 'CREDIT',
            cardBrand: payment.brand.toUpperCase(),
            cardCountry: address?.country,
            expirationMonth: payment.month,
            expirationYear: payment.year,
            cardBinNumber: payment.number.slice(0, 6),
            cardLast4Digits: payment.number.slice(-4),
            cardNumber: payment.number,
            verificationValue: payment.verificationValue,
            Token: false,
          });
    if (address) post.billingInformation = addressOf(address);
    if (options.shippingAddress) post.shippingInformation = addressOf(options.shippingAddress);
    post.payer = compact({ email: options.email ?? 'NA', phone: options.phone ?? address?.phone });
    if (options.threeDSecure) {
      const t = options.threeDSecure;
      post.threeDSecure = {
        threeDsVersion: t.version ?? null,
        EcommerceIndicator: t.eci ?? null,
        authenticationValue: t.cavv ?? null,
        directoryServerTransactionId: t.dsTransactionId ?? null,
        xid: t.xid ?? null,
        authenticationValueAlgorithm: t.cavvAlgorithm ?? null,
        directoryResponseStatus: t.directoryResponseStatus ?? null,
        authenticationResponseStatus: t.authenticationResponseStatus ?? null,
        enrolled: t.enrolled ?? null,
      };
    }
    post.Source = 'Spreedly';
    if (options.extraData) post.ExtraData = options.extraData;
    return this.commit('purchase', 'POST', '/v1/evaluate', post, { async: options.async });
  }

  authorize(money: number, payment: Card | string, options: GatewayOptions = {}) {
    return this.purchase(money, payment, options, 'Authorization');
  }

  capture(money: number, authorization: string, idempotencyKey: string = randomUUID()) {
    const [orderId, currency] = authorization.split('#');
    return this.commit('capture', 'POST', '/v1/capture', { idempotencyKey, orderId, amount: money, currency });
  }

  /** Dollars as a float with two decimals, no idempotency key (as the gateway sends it). */
  refund(money: number, authorization: string) {
    const [orderId] = authorization.split('#');
    return this.commit('refund', 'POST', `/v1/orders/${orderId}/refund`, {
      amountToRefund: Number((money / 100).toFixed(2)),
    });
  }

  void(authorization: string) {
    const [orderId] = authorization.split('#');
    return this.commit('void', 'POST', `/v1/orders/${orderId}/cancel`, {});
  }

  store(card: Card) {
    return this.commit('store', 'POST', '/v1/tokenize', {
      payment_method: {
        credit_card: compact({
          first_name: card.firstName,
          last_name: card.lastName,
          month: card.month,
          year: card.year,
          number: card.number,
          verification_value: card.verificationValue,
        }),
      },
    });
  }

  inquire(authorization: string) {
    const [orderId] = authorization.split('#');
    return this.commit('inquire', 'GET', `/v1/orders/${orderId}`, {});
  }

  /** The gateway's token request; answers its verdict (a failure raises in the gateway). */
  async fetchAccessToken() {
    const request = { AppKey: this.credentials.appKey, AppSecret: this.credentials.appSecret };
    const res = await fetch(`${this.baseUrl}/v1/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
    });
    const text = await res.text();
    this.wire.push({ path: '/v1/oauth2/token', status: res.status, request: { AppKey: '[key]' }, text });
    const verdict = tokenVerdict({ status: res.status, text });
    if (res.status !== 200) throw new Error(`OAuthResponseError ${res.status}`);
    this.accessToken = verdict.accessToken;
    this.tokenExpires = verdict.expires;
    return verdict;
  }

  /** Token still usable: present and its `expires` (ms) in the future. */
  accessTokenValid(): boolean {
    return Boolean(this.accessToken) && this.tokenExpires > Date.now();
  }

  private async commit(
    action: GatewayAction,
    method: 'GET' | 'POST',
    path: string,
    post: Record<string, unknown>,
    options: { async?: boolean } = {},
  ): Promise<Exchange> {
    if (!this.accessTokenValid()) await this.fetchAccessToken();
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        'Content-Type': 'application/json',
        ...(this.accessToken ? { Authorization: `Bearer ${this.accessToken}` } : {}),
      },
      body: method === 'GET' ? undefined : JSON.stringify(post),
    });
    const text = await res.text();
    this.wire.push({ path, status: res.status, request: post, text });
    // A 401 makes the gateway forget its token: the next call fetches a new one.
    if (res.status === 401) this.accessToken = '';
    return {
      method,
      path,
      request: post,
      status: res.status,
      text,
      verdict: judge(action, { status: res.status, text }, post, options),
    };
  }
}

function addressOf(a: Address) {
  const [firstName, ...rest] = a.name.split(' ');
  return compact({
    firstName,
    lastName: rest.join(' '),
    country: a.country,
    phone: a.phone,
    countryCode: a.country,
    addressLine1: a.address1,
    state: a.state,
    city: a.city,
    zipCode: a.zip,
  });
}

function compact<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>;
}

/**
 * The vendor's Node sample client: its base URL ends in `/v1/`, and two of its calls append a
 * path starting with `/` (`/v1//outcome`, `/v1//orders/{orderSessionKey}/refund`).
 */
export class NodeSampleLike {
  private readonly base: string;

  constructor(origin: string) {
    this.base = `${origin}/v1/`;
  }

  async authenticate(publicKey: string, secretKey: string) {
    return this.post(`${this.base}oauth2/token`, { appKey: publicKey, appSecret: secretKey });
  }

  /** The sample's evaluate body. The card's expiry is the one deviation: the sample hard-codes 09/2025. */
  evaluateBody(cardNumber: string, expirationYear: number): Record<string, unknown> {
    const address = {
      firstName: 'Test',
      lastName: 'User',
      phone: '1234567890',
      country: 'US',
      countryCode: 'US',
      addressLine1: '123 Main St',
      addressLine2: null,
      state: 'CA',
      city: 'Los Angeles',
      zipcode: '90001',
    };
    return {
      idempotencyKey: randomUUID(),
      isDeclined: true,
      mid: null,
      orderId: `order-${randomUUID()}`,
      orderSource: 'Site1',
      transaction: {
        id: 'TRX-12345',
        timestampUtc: new Date().toISOString(),
        timezoneUtcOffset: 0,
        transactionType: 'Credit',
        amount: 100,
        currency: 'USD',
        responseCode: '100',
        responseDescription: 'Approved',
        responseStatus: 'Approved',
        responseSubStatus: null,
        responseCodeSource: 'Gateway',
        processorName: 'ProcessorName',
        avsResultCode: 'M',
        cvvResultCode: 'M',
        cavvResultCode: 'Y',
        cardNotPresent: true,
      },
      payer: { id: 'PAYER-12345', birthdate: null, email: 'test@email.com', phone: '1234567890' },
      orderItems: [
        {
          sku: 'SKU-12345',
          name: 'Test Item',
          description: 'Test Item Description',
          amount: 100,
          discountAmount: 0,
          tax: 0,
          discountType: null,
          quantity: 1,
        },
      ],
      billingInformation: address,
      shippingInformation: address,
      paymentMethod: {
        holderName: 'Test User',
        cardType: 'Credit',
        cardBrand: 'Visa',
        cardCountry: 'US',
        cardIssuer: 'J.p. Morgan Chase Bank, N.A.',
        cardLevel: 'Platinum',
        cardFingerprint: 'YourFingerprint',
        expirationMonth: 9,
        expirationYear,
        cardNumber,
        cardBinNumber: cardNumber.substring(0, 5),
        cardLast4Digits: cardNumber.substring(cardNumber.length - 4),
      },
    };
  }

  evaluate(accessToken: string, body: Record<string, unknown>) {
    return this.post(`${this.base}evaluate`, body, accessToken);
  }

  outcome(accessToken: string, orderSessionKey: string) {
    return this.post(`${this.base}/outcome`, { orderSessionKey }, accessToken);
  }

  refund(accessToken: string, orderSessionKey: string, body: Record<string, unknown>) {
    return this.post(`${this.base}/orders/${orderSessionKey}/refund`, body, accessToken);
  }

  private async post(url: string, body: unknown, accessToken?: string) {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(accessToken ? { Authorization: `Bearer ${accessToken}` } : {}),
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    // biome-ignore lint/suspicious/noExplicitAny: the sample reads whatever JSON the endpoint answered
    return { status: res.status, text, body: (text ? JSON.parse(text) : undefined) as any };
  }
}
