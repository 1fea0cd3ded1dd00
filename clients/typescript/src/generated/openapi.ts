/* eslint-disable */
/**
 * Generated from the service's OpenAPI document (GET /v1/openapi.json) by
 * clients/typescript/scripts/generate-types.ts. Do not edit: run `npm run client:types`.
 */

/**
 * OpenAPI 3.1.1: Payment Rescue Service (version 1).
 */
export interface PaymentRescueApi {
  operations: {
    postV1Evaluate: {
      requestBody: {
        idempotencyKey: string;
        externalOrderId?: string;
        orderId?: string;
        senseKey?: string;
        mid?: string;
        siteId?: string;
        isDeclined?: boolean;
        isMIT?: boolean;
        isRecurring?: boolean;
        expiryDateUtc?: string;
        transactionType?: string;
        subscription?: {
          intervalCount?: number;
        };
        attemptCount?: number;
        threeDSecure?: {
          [k: string]: unknown | undefined;
        };
        transaction: {
          amount: number;
          currency: string;
          responseCode?: string;
          declinedAtUtc?: string;
          id?: string;
          timezoneUtcOffset?: string | number;
          responseCodeSource?: string;
          avsResultCode?: string;
          cvvResultCode?: string;
          cavvResultCode?: string;
          cardNotPresent?: boolean;
        };
        paymentMethod: {
          token?: string;
          Token?: boolean;
          cardNumber?: string;
          expiryMonth?: number;
          expiryYear?: number;
          expirationMonth?: number;
          expirationYear?: number;
          holderName?: string;
          verificationValue?: string | number;
        };
        payer?: {
          email?: string;
          ipAddress?: string;
        };
      };
      response: EvaluateAnswer;
    };
    postV1Capture: {
      requestBody: {
        idempotencyKey: string;
        orderId: string;
        amount?: number;
        currency?: string;
      };
      response: CaptureAnswer;
    };
    postV1OrdersIdCancel: {
      path: {
        id: string;
      };
      requestBody?: {
        idempotencyKey?: string;
      };
      response: null;
    };
    postV1OrdersExternalOrderIdExternalCancel: {
      path: {
        externalOrderId: string;
      };
      requestBody?: {
        idempotencyKey?: string;
      };
      response: null;
    };
    postV1OrdersIdRefund: {
      path: {
        id: string;
      };
      requestBody?: {
        idempotencyKey?: string;
        amountToRefund?: number | string;
        isPartialRefund?: boolean;
      };
      response: RefundAnswer;
    };
    getV1OrdersId: {
      path: {
        id: string;
      };
      response: Order;
    };
    postV1Outcome: {
      requestBody?: {
        orderId?: string;
        orderSessionKey?: string;
      };
      response: Order;
    };
    getV1Health: {
      response: Health;
    };
    getV1HealthLive: {
      response: {
        status: 'ok';
        time: string;
      };
    };
    getV1HealthReady: {
      response: Readiness;
    };
    getV1HealthWorkers: {
      response: WorkerHealth;
    };
    postV1Oauth2Token: {
      requestBody: {
        grant_type: 'client_credentials';
        client_id?: string;
        client_secret?: string;
        scope?: string;
      };
      response: AccessToken;
    };
    postV1ApiKeys: {
      requestBody: {
        mid?: string;
        name: string;
        description?: string | null;
        /**
         * @minItems 1
         */
        scopes?: ('payments' | 'api_keys' | 'settings' | 'webhooks')[];
      };
      /**
       * The API key and `secret`.
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    getV1ApiKeys: {
      query?: {
        mid: string;
      };
      /**
       * `{ mid, data: [API key] }`.
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    getV1ApiKeysId: {
      path: {
        id: string;
      };
      /**
       * The API key.
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    putV1ApiKeysId: {
      path: {
        id: string;
      };
      requestBody?: {
        name?: string;
        description?: string | null;
        /**
         * @minItems 1
         */
        scopes?: ('payments' | 'api_keys' | 'settings' | 'webhooks')[];
        rotateSecret?: true;
      };
      /**
       * The API key.
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    deleteV1ApiKeysId: {
      path: {
        id: string;
      };
      /**
       * The revoked API key.
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    postV1Tokenize: {
      requestBody:
        | {
            cardNumber: string;
            expiryMonth: number;
            expiryYear: number;
            holderName?: string;
          }
        | {
            payment_method: {
              credit_card: {
                number: string;
                month: number;
                year: number;
                first_name?: string;
                last_name?: string;
                verification_value?: string | number;
              };
            };
          };
      /**
       * The token.
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    postV1ChallengesOrderSessionKeyResult: {
      path: {
        orderSessionKey: string;
        result: 'attempted' | 'passed' | 'failed';
      };
      /**
       * `{ orderId, status, statusName, outcome }`.
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    postV1Applications: {
      requestBody: {
        business: {
          legalName: string;
          contactEmail: string;
          website?: string;
          country?: string;
          /**
           * @maxItems 20
           */
          siteOrigins?: string[];
        };
      };
      /**
       * The application (docs/webhooks.md#partner-applications).
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    getV1Applications: {
      query?: {
        status?: 'DRAFT' | 'SUBMITTED' | 'APPROVED' | 'DECLINED' | 'CONVERTED' | 'CANCELED';
      };
      /**
       * `{ data: [application] }`.
       */
      response: {
        data: {
          [k: string]: unknown | undefined;
        }[];
        [k: string]: unknown | undefined;
      };
    };
    getV1ApplicationsId: {
      path: {
        id: string;
      };
      /**
       * The application (docs/webhooks.md#partner-applications).
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    postV1ApplicationsIdSubmit: {
      path: {
        id: string;
      };
      requestBody?: {
        reason?: string;
      };
      /**
       * The application (docs/webhooks.md#partner-applications).
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    postV1ApplicationsIdCancel: {
      path: {
        id: string;
      };
      requestBody?: {
        reason?: string;
      };
      /**
       * The application (docs/webhooks.md#partner-applications).
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    postV1AdminApplicationsIdApprove: {
      path: {
        id: string;
      };
      requestBody?: {
        reason?: string;
      };
      /**
       * The application (docs/webhooks.md#partner-applications).
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    postV1AdminApplicationsIdDecline: {
      path: {
        id: string;
      };
      requestBody?: {
        reason?: string;
      };
      /**
       * The application (docs/webhooks.md#partner-applications).
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    postV1AdminApplicationsIdConvert: {
      path: {
        id: string;
      };
      requestBody?: {
        reason?: string;
      };
      /**
       * The application, with `merchant: { mid, site, tokenizationKey: { ...key, key } }` (the key shown this once).
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    postV1AdminOrdersOrderIdChargebacks: {
      path: {
        orderId: string;
      };
      requestBody: {
        reason: string;
        amount?: number;
        rapidDisputeResolution?: boolean;
      };
      /**
       * `{ id, kind, orderId, status, eventData }`.
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    postV1AdminOrdersOrderIdEarlyWarnings: {
      path: {
        orderId: string;
      };
      requestBody: {
        reason: string;
        amount?: number;
        rapidDisputeResolution?: boolean;
      };
      /**
       * `{ id, kind, orderId, status, eventData }`.
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    postV1AdminChargebacksIdReverse: {
      path: {
        id: string;
      };
      /**
       * `{ id, kind, orderId, status, eventData }`.
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    getV1MerchantsMidSettings: {
      path: {
        mid: string;
      };
      /**
       * `{ mid, ...settings }`.
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    putV1MerchantsMidSettings: {
      path: {
        mid: string;
      };
      requestBody?: {
        defaultExpiryHours?: number;
        syncMitWindowHours?: number;
        mitEvaluation?: 'async' | 'sync';
        authorizeCapability?: boolean;
        technicalContactEmail?: string | null;
        captureWindowMinutes?: number;
        processor?: ('sandbox' | 'stripe') | null;
      };
      /**
       * `{ mid, ...settings }`.
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    getV1MerchantsMidSites: {
      path: {
        mid: string;
      };
      /**
       * `{ mid, data: [site] }`.
       */
      response: {
        data: {
          [k: string]: unknown | undefined;
        }[];
        [k: string]: unknown | undefined;
      };
    };
    postV1MerchantsMidSites: {
      path: {
        mid: string;
      };
      requestBody: {
        name: string;
        /**
         * @minItems 1
         * @maxItems 50
         */
        allowedOrigins: string[];
      };
      /**
       * The site.
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    getV1MerchantsMidSitesSiteIdWidget: {
      path: {
        mid: string;
        siteId: string;
      };
      /**
       * The widget configuration.
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    putV1MerchantsMidSitesSiteIdWidget: {
      path: {
        mid: string;
        siteId: string;
      };
      requestBody?: {
        collect?: {
          fingerprint?: boolean;
          interactions?: boolean;
          emailCapture?: boolean;
          formScraping?: boolean;
          routeChanges?: boolean;
        };
        selectors?: {
          /**
           * @maxItems 10
           */
          email?: string[];
          /**
           * @maxItems 10
           */
          forms?: string[];
        };
      };
      /**
       * The widget configuration.
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    getWidgetFcJs: {
      response: null;
    };
    getWidgetFcHashJs: {
      path: {
        hash: string;
      };
      response: null;
    };
    optionsV1WidgetMidSiteIdConfig: {
      path: {
        mid: string;
        siteId: string;
      };
      response: null;
    };
    getV1WidgetMidSiteIdConfig: {
      path: {
        mid: string;
        siteId: string;
      };
      /**
       * Widget configuration.
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    optionsV1WidgetMidSiteIdSignals: {
      path: {
        mid: string;
        siteId: string;
      };
      response: null;
    };
    postV1WidgetMidSiteIdSignals: {
      path: {
        mid: string;
        siteId: string;
      };
      requestBody: {
        v: 1;
        senseKey: string;
        externalOrderId: string | null;
        /**
         * @maxItems 50
         */
        signals: (
          | {
              kind: 'fingerprint';
              t: number;
              hash: string;
              traits: number;
            }
          | {
              kind: 'interactions';
              t: number;
              counts: {
                clicks: number;
                keys: number;
                pointerMoves: number;
                scrolls: number;
                touches: number;
                focusChanges: number;
                pastes: number;
                copies: number;
              };
              timings: {
                firstInteractionMs: number | null;
                dwellMs: number;
                meanKeyIntervalMs: number | null;
              };
            }
          | {
              kind: 'email';
              t: number;
              hash: string;
            }
          | {
              kind: 'form';
              t: number;
              selector: string;
              /**
               * @maxItems 30
               */
              fields: {
                name: string;
                type: string;
                filled: boolean;
                length: number;
                hash: string | null;
              }[];
            }
          | {
              kind: 'route';
              t: number;
              path: string;
              trigger: 'load' | 'pushState' | 'replaceState' | 'popstate';
            }
        )[];
      };
      response: {
        senseKey: string;
        accepted: number;
      };
    };
    postV1AdminPartners: {
      requestBody: {
        name: string;
        apiKey?: {
          name: string;
        };
      };
      /**
       * `{ pid, name, createdAt, apiKey: { ...API key, secret } }`.
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    postV1MerchantsMidTokenizationKeys: {
      path: {
        mid: string;
      };
      requestBody?: {
        name?: string;
      };
      response: TokenizationKeyWithKey;
    };
    getV1MerchantsMidTokenizationKeys: {
      path: {
        mid: string;
      };
      /**
       * `{ mid, data: [tokenization key] }`.
       */
      response: {
        data: {
          [k: string]: unknown | undefined;
        }[];
        [k: string]: unknown | undefined;
      };
    };
    getV1MerchantsMidTokenizationKeysId: {
      path: {
        mid: string;
        id: string;
      };
      response: TokenizationKey;
    };
    deleteV1MerchantsMidTokenizationKeysId: {
      path: {
        mid: string;
        id: string;
      };
      response: TokenizationKey;
    };
    getV1MerchantsMidSitesSiteId: {
      path: {
        mid: string;
        siteId: string;
      };
      response: Site;
    };
    putV1MerchantsMidSitesSiteId: {
      path: {
        mid: string;
        siteId: string;
      };
      requestBody?: {
        name?: string;
        /**
         * @minItems 1
         * @maxItems 50
         */
        allowedOrigins?: string[];
      };
      response: Site;
    };
    postV1Webhooks: {
      requestBody: {
        url: string;
        /**
         * @minItems 1
         * @maxItems 50
         */
        events: string[];
        description?: string | null;
      };
      response: WebhookEndpointWithSecret;
    };
    getV1Webhooks: {
      response: {
        data: WebhookEndpoint[];
      };
    };
    getV1WebhooksId: {
      path: {
        id: string;
      };
      response: WebhookEndpoint;
    };
    putV1WebhooksId: {
      path: {
        id: string;
      };
      requestBody?: {
        url?: string;
        /**
         * @minItems 1
         * @maxItems 50
         */
        events?: string[];
        description?: string | null;
        enabled?: boolean;
      };
      response: WebhookEndpoint;
    };
    deleteV1WebhooksId: {
      path: {
        id: string;
      };
      response: {
        id: string;
        deleted: true;
      };
    };
    postV1WebhooksIdRotateSecret: {
      path: {
        id: string;
      };
      requestBody?: {
        activatesAt?: 'now' | string;
      };
      response: WebhookEndpointWithSecret;
    };
    getV1WebhooksIdDeliveries: {
      path: {
        id: string;
      };
      query?: {
        limit?: number;
      };
      /**
       * `{ endpointId, data }`.
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    getV1Events: {
      query?: {
        since?: string;
        starting_after?: string;
        limit?: number;
      };
      /**
       * `{ data, next }`.
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    postV1EventsEventIdResend: {
      path: {
        eventId: string;
      };
      /**
       * The resend.
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    postV1WebhooksIdTest: {
      path: {
        id: string;
      };
      requestBody?: {
        event?: string;
      };
      response: {
        deliveryId: string;
        eventId: string;
        endpointId: string;
        event: string;
        isTest: true;
        [k: string]: unknown | undefined;
      };
    };
    getV1OpenapiJson: {
      /**
       * OpenAPI 3.1.
       */
      response: {
        [k: string]: unknown | undefined;
      };
    };
    getDocs: {
      response: null;
    };
    getDocsReferenceJs: {
      response: null;
    };
  };
  webhookEvents: {
    'order.refunded': {
      /**
       * Same on every retry and resend of this event to this endpoint.
       */
      IdempotencyKey: string;
      Event: 'order.refunded';
      TimeStamp: string;
      EventData: {
        Timestamp: string;
        Message: string | null;
        TransactionId: string;
        InitialTransactionReference: string | null;
        /**
         * Minor units.
         */
        Amount: number;
        Currency: string;
      };
      Mid: string | null;
      Pid: string;
      ExternalOrderId: string | null;
      OrderId: string | null;
      ConfirmationId: string | null;
      IsTestMode: boolean;
      IsResent: boolean;
    };
    'order.completed': {
      /**
       * Same on every retry and resend of this event to this endpoint.
       */
      IdempotencyKey: string;
      Event: 'order.completed';
      TimeStamp: string;
      EventData: null;
      Mid: string | null;
      Pid: string;
      ExternalOrderId: string | null;
      OrderId: string | null;
      ConfirmationId: string | null;
      IsTestMode: boolean;
      IsResent: boolean;
    };
    'order.cancelled': {
      /**
       * Same on every retry and resend of this event to this endpoint.
       */
      IdempotencyKey: string;
      Event: 'order.cancelled';
      TimeStamp: string;
      EventData: null;
      Mid: string | null;
      Pid: string;
      ExternalOrderId: string | null;
      OrderId: string | null;
      ConfirmationId: string | null;
      IsTestMode: boolean;
      IsResent: boolean;
    };
    'order.expired': {
      /**
       * Same on every retry and resend of this event to this endpoint.
       */
      IdempotencyKey: string;
      Event: 'order.expired';
      TimeStamp: string;
      EventData: null;
      Mid: string | null;
      Pid: string;
      ExternalOrderId: string | null;
      OrderId: string | null;
      ConfirmationId: string | null;
      IsTestMode: boolean;
      IsResent: boolean;
    };
    'order.capturerequired': {
      /**
       * Same on every retry and resend of this event to this endpoint.
       */
      IdempotencyKey: string;
      Event: 'order.capturerequired';
      TimeStamp: string;
      EventData: {
        /**
         * Minor units.
         */
        Amount: number;
        Currency: string;
        CaptureBefore: string;
      };
      Mid: string | null;
      Pid: string;
      ExternalOrderId: string | null;
      OrderId: string | null;
      ConfirmationId: string | null;
      IsTestMode: boolean;
      IsResent: boolean;
    };
    'payment.chargeback.received': {
      /**
       * Same on every retry and resend of this event to this endpoint.
       */
      IdempotencyKey: string;
      Event: 'payment.chargeback.received';
      TimeStamp: string;
      EventData: {
        DisputeDateTime: string;
        Reason: string;
        TransactionId: string;
        InitialTransactionReference: string | null;
        /**
         * Minor units.
         */
        Amount: number;
        Currency: string;
      };
      Mid: string | null;
      Pid: string;
      ExternalOrderId: string | null;
      OrderId: string | null;
      ConfirmationId: string | null;
      IsTestMode: boolean;
      IsResent: boolean;
    };
    'payment.chargeback.reversed': {
      /**
       * Same on every retry and resend of this event to this endpoint.
       */
      IdempotencyKey: string;
      Event: 'payment.chargeback.reversed';
      TimeStamp: string;
      EventData: {
        DisputeDateTime: string;
        ReversalDateTime: string;
        Reason: string;
        TransactionId: string;
        InitialTransactionReference: string | null;
        /**
         * Minor units.
         */
        Amount: number;
        Currency: string;
      };
      Mid: string | null;
      Pid: string;
      ExternalOrderId: string | null;
      OrderId: string | null;
      ConfirmationId: string | null;
      IsTestMode: boolean;
      IsResent: boolean;
    };
    'payment.early_warning.received': {
      /**
       * Same on every retry and resend of this event to this endpoint.
       */
      IdempotencyKey: string;
      Event: 'payment.early_warning.received';
      TimeStamp: string;
      EventData: {
        WarningDateTime: string;
        Reason: string;
        TransactionId: string;
        InitialTransactionReference: string | null;
        /**
         * Minor units.
         */
        Amount: number;
        Currency: string;
      };
      Mid: string | null;
      Pid: string;
      ExternalOrderId: string | null;
      OrderId: string | null;
      ConfirmationId: string | null;
      IsTestMode: boolean;
      IsResent: boolean;
    };
    'challenge.presented': {
      /**
       * Same on every retry and resend of this event to this endpoint.
       */
      IdempotencyKey: string;
      Event: 'challenge.presented';
      TimeStamp: string;
      EventData: {
        ExpiresAt: string;
      };
      Mid: string | null;
      Pid: string;
      ExternalOrderId: string | null;
      OrderId: string | null;
      ConfirmationId: string | null;
      IsTestMode: boolean;
      IsResent: boolean;
    };
    'challenge.attempted': {
      /**
       * Same on every retry and resend of this event to this endpoint.
       */
      IdempotencyKey: string;
      Event: 'challenge.attempted';
      TimeStamp: string;
      EventData: {
        Attempt: number;
        AttemptedAt: string;
      };
      Mid: string | null;
      Pid: string;
      ExternalOrderId: string | null;
      OrderId: string | null;
      ConfirmationId: string | null;
      IsTestMode: boolean;
      IsResent: boolean;
    };
    'challenge.passed': {
      /**
       * Same on every retry and resend of this event to this endpoint.
       */
      IdempotencyKey: string;
      Event: 'challenge.passed';
      TimeStamp: string;
      EventData: {
        PassedAt: string;
      };
      Mid: string | null;
      Pid: string;
      ExternalOrderId: string | null;
      OrderId: string | null;
      ConfirmationId: string | null;
      IsTestMode: boolean;
      IsResent: boolean;
    };
    'challenge.failed': {
      /**
       * Same on every retry and resend of this event to this endpoint.
       */
      IdempotencyKey: string;
      Event: 'challenge.failed';
      TimeStamp: string;
      EventData: {
        FailedAt: string;
      };
      Mid: string | null;
      Pid: string;
      ExternalOrderId: string | null;
      OrderId: string | null;
      ConfirmationId: string | null;
      IsTestMode: boolean;
      IsResent: boolean;
    };
    'application.submitted': {
      /**
       * Same on every retry and resend of this event to this endpoint.
       */
      IdempotencyKey: string;
      Event: 'application.submitted';
      TimeStamp: string;
      EventData: {
        ApplicationId: string;
        Status: string;
        PreviousStatus: string | null;
        /**
         * Set from conversion.
         */
        Mid: string | null;
        Reason: string | null;
      };
      Mid: string | null;
      Pid: string;
      ExternalOrderId: string | null;
      OrderId: string | null;
      ConfirmationId: string | null;
      IsTestMode: boolean;
      IsResent: boolean;
    };
    'application.canceled': {
      /**
       * Same on every retry and resend of this event to this endpoint.
       */
      IdempotencyKey: string;
      Event: 'application.canceled';
      TimeStamp: string;
      EventData: {
        ApplicationId: string;
        Status: string;
        PreviousStatus: string | null;
        /**
         * Set from conversion.
         */
        Mid: string | null;
        Reason: string | null;
      };
      Mid: string | null;
      Pid: string;
      ExternalOrderId: string | null;
      OrderId: string | null;
      ConfirmationId: string | null;
      IsTestMode: boolean;
      IsResent: boolean;
    };
    'application.approved': {
      /**
       * Same on every retry and resend of this event to this endpoint.
       */
      IdempotencyKey: string;
      Event: 'application.approved';
      TimeStamp: string;
      EventData: {
        ApplicationId: string;
        Status: string;
        PreviousStatus: string | null;
        /**
         * Set from conversion.
         */
        Mid: string | null;
        Reason: string | null;
      };
      Mid: string | null;
      Pid: string;
      ExternalOrderId: string | null;
      OrderId: string | null;
      ConfirmationId: string | null;
      IsTestMode: boolean;
      IsResent: boolean;
    };
    'application.declined': {
      /**
       * Same on every retry and resend of this event to this endpoint.
       */
      IdempotencyKey: string;
      Event: 'application.declined';
      TimeStamp: string;
      EventData: {
        ApplicationId: string;
        Status: string;
        PreviousStatus: string | null;
        /**
         * Set from conversion.
         */
        Mid: string | null;
        Reason: string | null;
      };
      Mid: string | null;
      Pid: string;
      ExternalOrderId: string | null;
      OrderId: string | null;
      ConfirmationId: string | null;
      IsTestMode: boolean;
      IsResent: boolean;
    };
    'application.converted': {
      /**
       * Same on every retry and resend of this event to this endpoint.
       */
      IdempotencyKey: string;
      Event: 'application.converted';
      TimeStamp: string;
      EventData: {
        ApplicationId: string;
        Status: string;
        PreviousStatus: string | null;
        /**
         * Set from conversion.
         */
        Mid: string | null;
        Reason: string | null;
      };
      Mid: string | null;
      Pid: string;
      ExternalOrderId: string | null;
      OrderId: string | null;
      ConfirmationId: string | null;
      IsTestMode: boolean;
      IsResent: boolean;
    };
  };
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "EvaluateAnswer".
 */
export interface EvaluateAnswer {
  orderId: string;
  orderSessionKey: string;
  senseKey: string | null;
  externalOrderId: string;
  outcome: 'APPROVED' | 'DECLINED' | 'CHALLENGE' | 'SUBMITTED' | 'CAPTUREREQUIRED';
  /**
   * The outcome word (APPROVED, DECLINED, ...).
   */
  status: string;
  success: true;
  result: 'Success';
  statusCode: null;
  errors: unknown[];
  customProperties: {
    [k: string]: unknown | undefined;
  };
  /**
   * The order's status number.
   */
  orderStatus: number;
  /**
   * The order's status name.
   */
  orderStatusName: string;
  [k: string]: unknown | undefined;
}
/**
 * The order, with the command envelope (`status: "APPROVED"`).
 *
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "CaptureAnswer".
 */
export interface CaptureAnswer {
  id: string;
  orderId: string;
  orderSessionKey: string;
  externalOrderId: string;
  confirmationId: string | null;
  senseKey: string | null;
  /**
   * The outcome word (APPROVED, DECLINED, ...).
   */
  status: string;
  outcome: string | null;
  flow: string;
  transactionType: 'SALE' | 'AUTHORIZATION';
  isMIT: boolean;
  isRecurring: boolean;
  isTestMode: boolean;
  currency: string;
  amounts: {
    requested: number;
    authorized: number | null;
    captured: number | null;
    refunded: number | null;
  };
  card: {
    brand: string | null;
    last4: string | null;
  };
  rescueWindowEndsAtUtc: string | null;
  captureBeforeUtc: string | null;
  scoring: {
    score: number | null;
    reasons: string[] | null;
    deviceSignalsUsed: boolean | null;
  };
  createdAtUtc: string | null;
  updatedAtUtc: string | null;
  completedAtUtc: string | null;
  cancelledAtUtc: string | null;
  expiredAtUtc: string | null;
  /**
   * Every processor call of the order, from the charges ledger (docs/orders.md).
   */
  attempts: {
    attempt: number;
    kind: 'sale' | 'authorization' | 'capture' | 'void' | 'reversal';
    state: 'intent' | 'sent' | 'answered' | 'reversed' | 'unknown';
    result: string | null;
    networkCode: string | null;
    advice: string | null;
    createdAtUtc: string;
    answeredAtUtc: string | null;
  }[];
  success: true;
  result: 'Success';
  statusCode: null;
  errors: unknown[];
  customProperties: {
    [k: string]: unknown | undefined;
  };
  /**
   * The order's status number.
   */
  orderStatus: number;
  /**
   * The order's status name.
   */
  orderStatusName: string;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "RefundAnswer".
 */
export interface RefundAnswer {
  orderId: string;
  orderSessionKey: string;
  transactionId: string;
  /**
   * Minor units.
   */
  amount: number;
  /**
   * Refunded total, minor units.
   */
  refundedAmount: number;
  currency: string;
  /**
   * The outcome word (APPROVED, DECLINED, ...).
   */
  status: string;
  success: true;
  result: 'Success';
  statusCode: null;
  errors: unknown[];
  customProperties: {
    [k: string]: unknown | undefined;
  };
  /**
   * The order's status number.
   */
  orderStatus: number;
  /**
   * The order's status name.
   */
  orderStatusName: string;
  [k: string]: unknown | undefined;
}
/**
 * GET /v1/orders/{id}: `status` is the number, `statusName` the word.
 *
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "Order".
 */
export interface Order {
  id: string;
  orderId: string;
  orderSessionKey: string;
  externalOrderId: string;
  confirmationId: string | null;
  senseKey: string | null;
  status: number;
  statusName: string;
  outcome: string | null;
  flow: string;
  transactionType: 'SALE' | 'AUTHORIZATION';
  isMIT: boolean;
  isRecurring: boolean;
  isTestMode: boolean;
  currency: string;
  amounts: {
    requested: number;
    authorized: number | null;
    captured: number | null;
    refunded: number | null;
  };
  card: {
    brand: string | null;
    last4: string | null;
  };
  rescueWindowEndsAtUtc: string | null;
  captureBeforeUtc: string | null;
  scoring: {
    score: number | null;
    reasons: string[] | null;
    deviceSignalsUsed: boolean | null;
  };
  createdAtUtc: string | null;
  updatedAtUtc: string | null;
  completedAtUtc: string | null;
  cancelledAtUtc: string | null;
  expiredAtUtc: string | null;
  /**
   * Every processor call of the order, from the charges ledger (docs/orders.md).
   */
  attempts: {
    attempt: number;
    kind: 'sale' | 'authorization' | 'capture' | 'void' | 'reversal';
    state: 'intent' | 'sent' | 'answered' | 'reversed' | 'unknown';
    result: string | null;
    networkCode: string | null;
    advice: string | null;
    createdAtUtc: string;
    answeredAtUtc: string | null;
  }[];
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "Health".
 */
export interface Health {
  status: 'ok' | 'unavailable';
  environment: 'sandbox' | 'production';
  checks: {
    database: {
      status: 'ok' | 'down';
      latencyMs: number;
    };
    temporal: {
      status: 'ok' | 'down';
      latencyMs: number;
    };
    [k: string]: unknown | undefined;
  };
  time: string;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "Readiness".
 */
export interface Readiness {
  status: 'ok' | 'unavailable';
  environment: 'sandbox' | 'production';
  checks: {
    database: {
      status: 'ok' | 'down';
      latencyMs: number;
    };
    [k: string]: unknown | undefined;
  };
  time: string;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "WorkerHealth".
 */
export interface WorkerHealth {
  status: 'ok' | 'unavailable';
  environment: 'sandbox' | 'production';
  checks: {
    worker: {
      status: 'ok' | 'down';
      latencyMs: number;
      taskQueue: string;
      pollers: number;
      heartbeat: boolean;
    };
    [k: string]: unknown | undefined;
  };
  time: string;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "AccessToken".
 */
export interface AccessToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  /**
   * Space-separated: payments, api_keys, settings, webhooks.
   */
  scope: string;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "TokenizationKeyWithKey".
 */
export interface TokenizationKeyWithKey {
  id: string;
  mid: string;
  name: string;
  status: 'active' | 'revoked';
  /**
   * `...` and the last four characters of the key.
   */
  keyHint: string | null;
  createdAt: string;
  revokedAt: string | null;
  /**
   * The key for `x-tokenization-key`; shown only on creation.
   */
  key: string;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "TokenizationKey".
 */
export interface TokenizationKey {
  id: string;
  mid: string;
  name: string;
  status: 'active' | 'revoked';
  /**
   * `...` and the last four characters of the key.
   */
  keyHint: string | null;
  createdAt: string;
  revokedAt: string | null;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "Site".
 */
export interface Site {
  siteId: string;
  mid: string;
  name: string;
  allowedOrigins: string[];
  createdAt: string;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "WebhookEndpointWithSecret".
 */
export interface WebhookEndpointWithSecret {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  mid: string | null;
  pid: string | null;
  failingSince: string | null;
  disabledAt: string | null;
  disabledReason: string | null;
  /**
   * When a rotated secret starts signing.
   */
  secretActivatesAt?: string | null;
  createdAt: string;
  updatedAt: string;
  /**
   * Base64 of 32 bytes; shown only on creation and rotation.
   */
  secret: string;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "WebhookEndpoint".
 */
export interface WebhookEndpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  mid: string | null;
  pid: string | null;
  failingSince: string | null;
  disabledAt: string | null;
  disabledReason: string | null;
  /**
   * When a rotated secret starts signing.
   */
  secretActivatesAt?: string | null;
  createdAt: string;
  updatedAt: string;
  [k: string]: unknown | undefined;
}
/**
 * The one error shape (docs/errors.md).
 *
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "Error".
 */
export interface Error {
  /**
   * The message (what FlexCharge clients read).
   */
  title: string;
  /**
   * The request id, also in the x-request-id header.
   */
  TraceId: string;
  /**
   * Refusals by the order state (409004-409008).
   */
  responseMessage?: string;
  error: {
    /**
     * Six digits: the HTTP status, then three naming the error.
     */
    id: string;
    name:
      | 'malformed_json'
      | 'validation_failed'
      | 'route_not_found'
      | 'method_not_allowed'
      | 'payload_too_large'
      | 'unsupported_media_type'
      | 'rate_limited'
      | 'internal_error'
      | 'unsupported_grant_type'
      | 'oauth_invalid_request'
      | 'invalid_client'
      | 'invalid_token'
      | 'token_expired'
      | 'invalid_tokenization_key'
      | 'invalid_admin_token'
      | 'merchant_forbidden'
      | 'insufficient_scope'
      | 'api_key_not_found'
      | 'api_key_revoked'
      | 'idempotency_key_required'
      | 'idempotency_key_reused'
      | 'idempotency_request_in_flight'
      | 'idempotency_store_unavailable'
      | 'card_number_invalid'
      | 'card_brand_unsupported'
      | 'card_expired'
      | 'sandbox_card_not_allowed'
      | 'test_card_not_allowed'
      | 'authorize_capability_required'
      | 'order_not_found'
      | 'order_not_capturable'
      | 'order_not_cancellable'
      | 'refund_exceeds_captured'
      | 'order_not_refundable'
      | 'capture_exceeds_authorized'
      | 'order_busy'
      | 'order_request_mismatch'
      | 'order_not_in_challenge'
      | 'chargeback_not_reversible'
      | 'rescue_unavailable'
      | 'order_outcome_pending'
      | 'order_temporarily_unavailable'
      | 'widget_origin_forbidden'
      | 'site_not_found'
      | 'widget_payload_too_large'
      | 'widget_rate_limited'
      | 'webhook_url_not_https'
      | 'unknown_event_name'
      | 'webhook_url_not_allowed'
      | 'webhook_endpoint_not_found'
      | 'event_not_found'
      | 'webhook_endpoint_limit_reached'
      | 'application_not_found'
      | 'tokenization_key_not_found'
      | 'application_transition_not_allowed';
    message: string;
    /**
     * The request field at fault (dotted path).
     */
    field?: string;
    /**
     * Every validation problem at once (400002).
     */
    problems?: {
      field: string;
      message: string;
    }[];
    requestId: string;
    [k: string]: unknown | undefined;
  };
}
/**
 * The token endpoint keeps the RFC 6749 shape, plus our identifier.
 *
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "OAuthError".
 */
export interface OAuthError {
  error: string;
  error_description: string;
  id: string;
  name: string;
  field?: string;
  requestId: string;
}
