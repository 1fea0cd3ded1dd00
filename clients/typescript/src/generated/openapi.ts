/* eslint-disable */
/**
 * Generated from the service's OpenAPI document (GET /v1/openapi.json) by
 * clients/typescript/scripts/generate-types.ts. Do not edit: run `npm run client:types`.
 */

/**
 * OpenAPI 3.1.1: Payment Rescue Service (version 1.0.0).
 */
export interface PaymentRescueApi {
  operations: {
    evaluate: {
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
    capture: {
      requestBody: {
        idempotencyKey: string;
        orderId: string;
        amount?: number;
        currency?: string;
      };
      response: CaptureAnswer;
    };
    cancelOrder: {
      path: {
        id: string;
      };
      requestBody?: {
        idempotencyKey?: string;
      };
      response: null;
    };
    externalCancelOrder: {
      path: {
        externalOrderId: string;
      };
      requestBody?: {
        idempotencyKey?: string;
      };
      response: null;
    };
    refundOrder: {
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
    getOrder: {
      path: {
        id: string;
      };
      response: Order;
    };
    getOutcome: {
      requestBody?: {
        orderId?: string;
        orderSessionKey?: string;
      };
      response: Order;
    };
    listOrders: {
      query?: {
        /**
         * One or several statuses, comma-separated: the name (`Completed`), the lookup word (`SUCCESS`) or the number (`7`).
         */
        status?: string | string[];
        /**
         * One or several outcomes, comma-separated: APPROVED, DECLINED, CHALLENGE, SUBMITTED, CAPTUREREQUIRED, EXPIRED (as the order lookup shows them).
         */
        outcome?: string | string[];
        /**
         * One or several flows, comma-separated: CIT, SYNC_MIT, ASYNC_MIT.
         */
        flow?: string | string[];
        /**
         * Orders created at or after this instant (ISO 8601).
         */
        createdFrom?: string;
        /**
         * Orders created before this instant (ISO 8601, exclusive).
         */
        createdTo?: string;
        /**
         * The merchant's own order id, exactly.
         */
        externalOrderId?: string;
        /**
         * A `nextCursor`: the orders older than the page it ended.
         */
        starting_after?: string;
        limit?: number;
      };
      response: OrderPage;
    };
    getRescueReport: {
      query?: {
        /**
         * Orders created at or after this instant; default `to` minus 30 days.
         */
        from?: string;
        /**
         * Orders created before this instant (exclusive); default now.
         */
        to?: string;
        /**
         * day (UTC, of creation), declineCode, flow or currency.
         */
        groupBy?: 'day' | 'declineCode' | 'flow' | 'currency';
        /**
         * `csv`: the figures as text/csv (docs/reports.md).
         */
        format?: 'json' | 'csv';
      };
      response: RescueReport;
    };
    getHealth: {
      response: Health;
    };
    getLiveness: {
      response: {
        status: 'ok';
        time: string;
      };
    };
    getReadiness: {
      response: Readiness;
    };
    getWorkerHealth: {
      response: WorkerHealth;
    };
    createAccessToken: {
      requestBody: {
        grant_type: 'client_credentials';
        client_id?: string;
        client_secret?: string;
        scope?: string;
      };
      response: AccessToken;
    };
    createApiKey: {
      requestBody: {
        mid?: string;
        name: string;
        description?: string | null;
        /**
         * @minItems 1
         */
        scopes?: ('payments' | 'api_keys' | 'settings' | 'webhooks')[];
      };
      response: ApiKeyWithSecret;
    };
    listApiKeys: {
      query?: {
        mid: string;
      };
      response: ApiKeyList;
    };
    getApiKey: {
      path: {
        id: string;
      };
      response: ApiKey;
    };
    updateApiKey: {
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
      response: {
        id: string;
        /**
         * The `client_id` of POST /v1/oauth2/token (the same as `id`).
         */
        clientId: string;
        ownerType: 'merchant' | 'partner';
        pid: string;
        mid: string | null;
        name: string;
        description: string | null;
        scopes: ('payments' | 'api_keys' | 'settings' | 'webhooks')[];
        status: 'active' | 'revoked';
        /**
         * `...` and the last four characters of the secret.
         */
        secretHint: string | null;
        /**
         * Until then the secret before a rotation still works.
         */
        previousSecretExpiresAt: string | null;
        createdAt: string;
        updatedAt: string;
        revokedAt: string | null;
        /**
         * The `client_secret`; shown only on creation and rotation.
         */
        secret?: string;
        [k: string]: unknown | undefined;
      };
    };
    revokeApiKey: {
      path: {
        id: string;
      };
      response: ApiKey;
    };
    tokenize: {
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
      response: VaultedCard | SpreedlyVaultedCard;
    };
    submitChallengeResult: {
      path: {
        orderSessionKey: string;
        result: 'attempted' | 'passed' | 'failed';
      };
      response: ChallengeAnswer;
    };
    createApplication: {
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
      response: Application;
    };
    listApplications: {
      query?: {
        status?: 'DRAFT' | 'SUBMITTED' | 'APPROVED' | 'DECLINED' | 'CONVERTED' | 'CANCELED';
      };
      response: ApplicationList;
    };
    getApplication: {
      path: {
        id: string;
      };
      response: Application;
    };
    submitApplication: {
      path: {
        id: string;
      };
      requestBody?: {
        reason?: string;
      };
      response: Application;
    };
    cancelApplication: {
      path: {
        id: string;
      };
      requestBody?: {
        reason?: string;
      };
      response: Application;
    };
    approveApplication: {
      path: {
        id: string;
      };
      requestBody?: {
        reason?: string;
      };
      response: Application;
    };
    declineApplication: {
      path: {
        id: string;
      };
      requestBody?: {
        reason?: string;
      };
      response: Application;
    };
    convertApplication: {
      path: {
        id: string;
      };
      requestBody?: {
        reason?: string;
      };
      response: ConvertedApplication;
    };
    recordChargeback: {
      path: {
        orderId: string;
      };
      requestBody: {
        reason: string;
        amount?: number;
        rapidDisputeResolution?: boolean;
      };
      response: Dispute;
    };
    recordEarlyWarning: {
      path: {
        orderId: string;
      };
      requestBody: {
        reason: string;
        amount?: number;
        rapidDisputeResolution?: boolean;
      };
      response: Dispute;
    };
    reverseChargeback: {
      path: {
        id: string;
      };
      response: Dispute;
    };
    getOperatorRescueReport: {
      query?: {
        /**
         * Orders created at or after this instant; default `to` minus 30 days.
         */
        from?: string;
        /**
         * Orders created before this instant (exclusive); default now.
         */
        to?: string;
        /**
         * day (UTC, of creation), declineCode, flow or currency.
         */
        groupBy?: 'day' | 'declineCode' | 'flow' | 'currency';
        /**
         * `csv`: the figures as text/csv (docs/reports.md).
         */
        format?: 'json' | 'csv';
        /**
         * Only this partner's merchants.
         */
        partnerId?: string;
        /**
         * Only this merchant's orders.
         */
        merchantId?: string;
      };
      response: RescueReport;
    };
    getMerchantSettings: {
      path: {
        mid: string;
      };
      response: MerchantSettings;
    };
    updateMerchantSettings: {
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
      response: MerchantSettings;
    };
    listSites: {
      path: {
        mid: string;
      };
      response: SiteList;
    };
    createSite: {
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
      response: Site;
    };
    getSiteWidget: {
      path: {
        mid: string;
        siteId: string;
      };
      response: SiteWidget;
    };
    updateSiteWidget: {
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
      response: SiteWidget;
    };
    getWidgetLoader: {
      response: null;
    };
    getWidgetScript: {
      path: {
        hash: string;
      };
      response: null;
    };
    preflightWidgetConfig: {
      path: {
        mid: string;
        siteId: string;
      };
      response: null;
    };
    getWidgetConfig: {
      path: {
        mid: string;
        siteId: string;
      };
      response: WidgetConfig;
    };
    preflightWidgetSignals: {
      path: {
        mid: string;
        siteId: string;
      };
      response: null;
    };
    sendWidgetSignals: {
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
      response: SignalsAccepted;
    };
    createPartner: {
      requestBody: {
        name: string;
        apiKey?: {
          name: string;
        };
      };
      response: PartnerWithKey;
    };
    createTokenizationKey: {
      path: {
        mid: string;
      };
      requestBody?: {
        name?: string;
      };
      response: TokenizationKeyWithKey;
    };
    listTokenizationKeys: {
      path: {
        mid: string;
      };
      response: TokenizationKeyList;
    };
    getTokenizationKey: {
      path: {
        mid: string;
        id: string;
      };
      response: TokenizationKey;
    };
    revokeTokenizationKey: {
      path: {
        mid: string;
        id: string;
      };
      response: TokenizationKey;
    };
    getSite: {
      path: {
        mid: string;
        siteId: string;
      };
      response: Site;
    };
    updateSite: {
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
    createWebhookEndpoint: {
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
    listWebhookEndpoints: {
      response: WebhookEndpointList;
    };
    getWebhookEndpoint: {
      path: {
        id: string;
      };
      response: WebhookEndpoint;
    };
    updateWebhookEndpoint: {
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
    deleteWebhookEndpoint: {
      path: {
        id: string;
      };
      response: WebhookEndpointDeleted;
    };
    rotateWebhookSecret: {
      path: {
        id: string;
      };
      requestBody?: {
        activatesAt?: 'now' | string;
      };
      response: RotatedWebhookEndpoint;
    };
    listWebhookDeliveries: {
      path: {
        id: string;
      };
      query?: {
        limit?: number;
      };
      response: DeliveryLog;
    };
    listEvents: {
      query?: {
        since?: string;
        starting_after?: string;
        limit?: number;
        /**
         * `true` lists test events (POST /v1/webhooks/{id}/test) too, with `IsTestEvent: true`.
         */
        include_test_events?: 'true' | 'false';
      };
      response: EventPage;
    };
    resendEvent: {
      path: {
        eventId: string;
      };
      response: EventResent;
    };
    sendTestEvent: {
      path: {
        id: string;
      };
      requestBody?: {
        event?: string;
      };
      response: TestEventQueued;
    };
    createDashboardLink: {
      requestBody?: {
        /**
         * How long the link works: 60 to 3600 seconds, 900 (15 minutes) by default.
         */
        expiresInSeconds?: number;
      };
      response: DashboardLink;
    };
    listOrderWebhookDeliveries: {
      path: {
        id: string;
      };
      query?: {
        limit?: number;
      };
      response: OrderDeliveryLog;
    };
    getDashboardPage: {
      response: null;
    };
    getDashboardScript: {
      response: null;
    };
    getDashboardCurrencies: {
      response: null;
    };
    getDashboardStyles: {
      response: null;
    };
    getDashboardChartLibrary: {
      response: null;
    };
    getOpenApiDocument: {
      response: OpenApiDocument;
    };
    getReferencePage: {
      response: null;
    };
    getErrorPage: {
      response: null;
    };
    getReferenceRenderer: {
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
      /**
       * null when the rescue window ended the rescue; set when the card's retry budget did.
       */
      EventData: {
        EndedBy: 'retry_budget';
        /**
         * The network rule that ended it (docs/network-rules.md).
         */
        Rule: string;
        /**
         * When that rule lets the card be charged again.
         */
        RetryAllowedAt: string;
      } | null;
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
  /**
   * Absent when read through a dashboard link: the key reports a challenge result (docs/dashboard.md).
   */
  orderSessionKey?: string;
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
  /**
   * GET /v1/orders/{id} (and POST /v1/outcome) only: the card's retry budget at the merchant across its orders (`used` declines of the binding network limit `limit`, the oldest leaving its window at `resetsAt`; docs/network-rules.md); null when the card is not in the vault.
   */
  retryBudget?: {
    used: number;
    limit: number;
    resetsAt: string | null;
  } | null;
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
  /**
   * Absent when read through a dashboard link: the key reports a challenge result (docs/dashboard.md).
   */
  orderSessionKey?: string;
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
  /**
   * GET /v1/orders/{id} (and POST /v1/outcome) only: the card's retry budget at the merchant across its orders (`used` declines of the binding network limit `limit`, the oldest leaving its window at `resetsAt`; docs/network-rules.md); null when the card is not in the vault.
   */
  retryBudget?: {
    used: number;
    limit: number;
    resetsAt: string | null;
  } | null;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "OrderPage".
 */
export interface OrderPage {
  /**
   * Newest first.
   */
  data: Order[];
  hasMore: boolean;
  /**
   * Pass back as `starting_after`, with the same filters, for the next (older) page; null on the last.
   */
  nextCursor: string | null;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "RescueReport".
 */
export interface RescueReport {
  from: string;
  to: string;
  groupBy: 'day' | 'declineCode' | 'flow' | 'currency';
  totals: RescueFigures;
  /**
   * In key order (days ascending); groups without orders are left out.
   */
  groups: {
    /**
     * UTC day (YYYY-MM-DD), decline code ("" for none), flow or currency.
     */
    key: string;
    /**
     * Orders whose first evaluate decided (any status but Draft).
     */
    evaluated: number;
    /**
     * CIT and Sync MIT orders the processor approved (at evaluate or after a challenge).
     */
    approved: number;
    /**
     * Orders declined outright (status Declined).
     */
    declined: number;
    /**
     * Async MIT orders their evaluate answered SUBMITTED.
     */
    submitted: number;
    /**
     * Submitted orders completed by a retry charge.
     */
    rescued: number;
    /**
     * Submitted orders whose window or retry budget ended the rescue.
     */
    expired: number;
    /**
     * Captured amount of the rescued orders, per currency (alphabetical; currencies with none left out).
     */
    recovered: {
      currency: string;
      /**
       * Minor units.
       */
      amount: number;
      [k: string]: unknown | undefined;
    }[];
    /**
     * rescued / submitted; null when none was submitted.
     */
    rescueRate: number | null;
    /**
     * Charge attempts of the rescued orders / rescued; null when none.
     */
    attemptsPerRescue: number | null;
    /**
     * Median of creation to completion of the rescued orders, in whole seconds; null when none.
     */
    medianTimeToRescueSeconds: number | null;
    [k: string]: unknown | undefined;
  }[];
  openRescues: {
    /**
     * Every open rescue of the range.
     */
    count: number;
    /**
     * Soonest next attempt first, at most 100.
     */
    items: OpenRescue[];
    [k: string]: unknown | undefined;
  };
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "RescueFigures".
 */
export interface RescueFigures {
  /**
   * Orders whose first evaluate decided (any status but Draft).
   */
  evaluated: number;
  /**
   * CIT and Sync MIT orders the processor approved (at evaluate or after a challenge).
   */
  approved: number;
  /**
   * Orders declined outright (status Declined).
   */
  declined: number;
  /**
   * Async MIT orders their evaluate answered SUBMITTED.
   */
  submitted: number;
  /**
   * Submitted orders completed by a retry charge.
   */
  rescued: number;
  /**
   * Submitted orders whose window or retry budget ended the rescue.
   */
  expired: number;
  /**
   * Captured amount of the rescued orders, per currency (alphabetical; currencies with none left out).
   */
  recovered: {
    currency: string;
    /**
     * Minor units.
     */
    amount: number;
    [k: string]: unknown | undefined;
  }[];
  /**
   * rescued / submitted; null when none was submitted.
   */
  rescueRate: number | null;
  /**
   * Charge attempts of the rescued orders / rescued; null when none.
   */
  attemptsPerRescue: number | null;
  /**
   * Median of creation to completion of the rescued orders, in whole seconds; null when none.
   */
  medianTimeToRescueSeconds: number | null;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "OpenRescue".
 */
export interface OpenRescue {
  orderId: string;
  /**
   * The operator's report only.
   */
  merchantId?: string;
  externalOrderId: string;
  amount: number;
  currency: string;
  /**
   * Charge attempts made so far.
   */
  attempts: number;
  /**
   * The schedule's next retry, or the window's end (a card's retry budget may hold it later).
   */
  nextAttemptAt: string;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "Health".
 */
export interface Health {
  status: 'ok' | 'unavailable';
  environment: 'sandbox' | 'production';
  /**
   * The running release (CHANGELOG.md, the git tag `v<version>`).
   */
  version: string;
  /**
   * This process's build (WORKER_BUILD_ID) when it runs as a versioned build, else null.
   */
  buildId: string | null;
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
 * via the `definition` "ApiKeyWithSecret".
 */
export interface ApiKeyWithSecret {
  id: string;
  /**
   * The `client_id` of POST /v1/oauth2/token (the same as `id`).
   */
  clientId: string;
  ownerType: 'merchant' | 'partner';
  pid: string;
  mid: string | null;
  name: string;
  description: string | null;
  scopes: ('payments' | 'api_keys' | 'settings' | 'webhooks')[];
  status: 'active' | 'revoked';
  /**
   * `...` and the last four characters of the secret.
   */
  secretHint: string | null;
  /**
   * Until then the secret before a rotation still works.
   */
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
  revokedAt: string | null;
  /**
   * The `client_secret`; shown only on creation and rotation.
   */
  secret: string;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "ApiKeyList".
 */
export interface ApiKeyList {
  mid: string | null;
  data: ApiKey[];
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "ApiKey".
 */
export interface ApiKey {
  id: string;
  /**
   * The `client_id` of POST /v1/oauth2/token (the same as `id`).
   */
  clientId: string;
  ownerType: 'merchant' | 'partner';
  pid: string;
  mid: string | null;
  name: string;
  description: string | null;
  scopes: ('payments' | 'api_keys' | 'settings' | 'webhooks')[];
  status: 'active' | 'revoked';
  /**
   * `...` and the last four characters of the secret.
   */
  secretHint: string | null;
  /**
   * Until then the secret before a rotation still works.
   */
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
  revokedAt: string | null;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "VaultedCard".
 */
export interface VaultedCard {
  /**
   * Send it as `paymentMethod.token` (or `card.token`) to POST /v1/evaluate.
   */
  token: string;
  brand: 'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb';
  /**
   * The first six digits.
   */
  bin: string;
  last4: string;
  expiryMonth: number;
  expiryYear: number;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "SpreedlyVaultedCard".
 */
export interface SpreedlyVaultedCard {
  transaction: {
    succeeded: true;
    on_test_gateway: boolean;
    created_at: string;
    updated_at: string;
    payment_method_added: true;
    payment_method: {
      token: string;
      created_at: string;
      updated_at: string;
      test: boolean;
      last_four_digits: string;
      first_six_digits: string;
      card_type: 'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb';
      first_name: string | null;
      last_name: string | null;
      month: number;
      year: number;
      payment_method_type: 'credit_card';
      verification_value: null;
      number: null;
      [k: string]: unknown | undefined;
    };
    [k: string]: unknown | undefined;
  };
  success: true;
  result: null;
  status: null;
  statusCode: null;
  errors: unknown[];
  customProperties: {
    [k: string]: unknown | undefined;
  };
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "ChallengeAnswer".
 */
export interface ChallengeAnswer {
  orderId: string;
  /**
   * The order's status number.
   */
  status: number;
  statusName: string;
  outcome: string | null;
  [k: string]: unknown | undefined;
}
/**
 * docs/webhooks.md#partner-applications.
 *
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "Application".
 */
export interface Application {
  id: string;
  pid: string;
  status: 'DRAFT' | 'SUBMITTED' | 'APPROVED' | 'DECLINED' | 'CONVERTED' | 'CANCELED';
  business: {
    legalName: string;
    contactEmail: string;
    website?: string;
    country?: string;
    siteOrigins?: string[];
    [k: string]: unknown | undefined;
  };
  /**
   * Set on conversion.
   */
  mid: string | null;
  decisionReason: string | null;
  createdAt: string;
  updatedAt: string;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "ApplicationList".
 */
export interface ApplicationList {
  data: Application[];
}
/**
 * The application, and this once the new merchant's site and tokenization key (with `key`).
 *
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "ConvertedApplication".
 */
export interface ConvertedApplication {
  id: string;
  pid: string;
  status: 'DRAFT' | 'SUBMITTED' | 'APPROVED' | 'DECLINED' | 'CONVERTED' | 'CANCELED';
  business: {
    legalName: string;
    contactEmail: string;
    website?: string;
    country?: string;
    siteOrigins?: string[];
    [k: string]: unknown | undefined;
  };
  /**
   * Set on conversion.
   */
  mid: string | null;
  decisionReason: string | null;
  createdAt: string;
  updatedAt: string;
  merchant: {
    mid: string;
    site: Site;
    tokenizationKey: TokenizationKeyWithKey;
    [k: string]: unknown | undefined;
  };
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
 * via the `definition` "Dispute".
 */
export interface Dispute {
  id: string;
  kind: 'chargeback' | 'early_warning';
  orderId?: string;
  status: 'received' | 'reversed';
  eventData:
    | {
        DisputeDateTime: string;
        Reason: string;
        TransactionId: string;
        InitialTransactionReference: string | null;
        /**
         * Minor units.
         */
        Amount: number;
        Currency: string;
      }
    | {
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
      }
    | {
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
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "MerchantSettings".
 */
export interface MerchantSettings {
  mid: string;
  defaultExpiryHours: number;
  syncMitWindowHours: number;
  mitEvaluation: 'async' | 'sync';
  authorizeCapability: boolean;
  technicalContactEmail: string | null;
  captureWindowMinutes: number;
  /**
   * null: the environment's default.
   */
  processor: ('sandbox' | 'stripe') | null;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "SiteList".
 */
export interface SiteList {
  mid: string;
  data: Site[];
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "SiteWidget".
 */
export interface SiteWidget {
  collect: {
    fingerprint: boolean;
    interactions: boolean;
    emailCapture: boolean;
    formScraping: boolean;
    routeChanges: boolean;
    [k: string]: unknown | undefined;
  };
  selectors: {
    email: string[];
    forms: string[];
    [k: string]: unknown | undefined;
  };
  mid: string;
  siteId: string;
  /**
   * Where the loader script is served.
   */
  widgetUrl: string;
  /**
   * The HTML to paste into the site's pages.
   */
  snippet: string;
  [k: string]: unknown | undefined;
}
/**
 * What the widget collects on this site, and its batch limits.
 *
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "WidgetConfig".
 */
export interface WidgetConfig {
  collect: {
    fingerprint: boolean;
    interactions: boolean;
    emailCapture: boolean;
    formScraping: boolean;
    routeChanges: boolean;
    [k: string]: unknown | undefined;
  };
  selectors: {
    email: string[];
    forms: string[];
    [k: string]: unknown | undefined;
  };
  mid: string;
  siteId: string;
  limits: {
    flushIntervalMs: number;
    maxSignalsPerBatch: number;
    maxBodyBytes: number;
    [k: string]: unknown | undefined;
  };
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "SignalsAccepted".
 */
export interface SignalsAccepted {
  senseKey: string;
  /**
   * Signals kept from this batch.
   */
  accepted: number;
}
/**
 * The partner and its first API key, with the secret (shown once).
 *
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "PartnerWithKey".
 */
export interface PartnerWithKey {
  pid: string;
  name: string;
  createdAt: string;
  apiKey: ApiKeyWithSecret;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "TokenizationKeyList".
 */
export interface TokenizationKeyList {
  mid: string;
  data: TokenizationKey[];
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
 * via the `definition` "WebhookEndpointList".
 */
export interface WebhookEndpointList {
  data: WebhookEndpoint[];
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
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "WebhookEndpointDeleted".
 */
export interface WebhookEndpointDeleted {
  id: string;
  deleted: true;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "RotatedWebhookEndpoint".
 */
export interface RotatedWebhookEndpoint {
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
  /**
   * When the new secret starts signing (the old one signs until then).
   */
  activatesAt: string;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "DeliveryLog".
 */
export interface DeliveryLog {
  endpointId: string;
  data: {
    deliveryId: string;
    eventId: string;
    event: string;
    status: 'pending' | 'delivered' | 'failed' | 'stopped';
    nextAttemptAt: string | null;
    deliveredAt: string | null;
    attempts: {
      attempt: number;
      isResent: boolean;
      startedAt: string;
      statusCode: number | null;
      latencyMs: number | null;
      error: string | null;
      succeeded: boolean;
      [k: string]: unknown | undefined;
    }[];
    [k: string]: unknown | undefined;
  }[];
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "EventPage".
 */
export interface EventPage {
  data: EventRecord[];
  hasMore: boolean;
  /**
   * Pass back as `starting_after`: every event then comes exactly once.
   */
  nextCursor: string | null;
  /**
   * The older paging (an instant; events at it repeat). Prefer `nextCursor`.
   */
  next: string | null;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "EventRecord".
 */
export interface EventRecord {
  EventId: string;
  Event:
    | 'order.refunded'
    | 'order.completed'
    | 'order.cancelled'
    | 'order.expired'
    | 'order.capturerequired'
    | 'payment.chargeback.received'
    | 'payment.chargeback.reversed'
    | 'payment.early_warning.received'
    | 'challenge.presented'
    | 'challenge.attempted'
    | 'challenge.passed'
    | 'challenge.failed'
    | 'application.submitted'
    | 'application.canceled'
    | 'application.approved'
    | 'application.declined'
    | 'application.converted';
  TimeStamp: string;
  /**
   * The event's EventData (the `webhooks` section types each).
   */
  EventData: {
    [k: string]: unknown | undefined;
  };
  Mid: string | null;
  Pid: string;
  ExternalOrderId: string | null;
  OrderId: string | null;
  ConfirmationId: string | null;
  IsTestMode: boolean;
  /**
   * A test event (POST /v1/webhooks/{id}/test); listed only with `include_test_events=true`.
   */
  IsTestEvent: boolean;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "EventResent".
 */
export interface EventResent {
  eventId: string;
  deliveries: {
    deliveryId: string;
    endpointId: string;
  }[];
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "TestEventQueued".
 */
export interface TestEventQueued {
  deliveryId: string;
  eventId: string;
  endpointId: string;
  event: string;
  isTest: true;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "DashboardLink".
 */
export interface DashboardLink {
  /**
   * The dashboard, with the signed link token in the URL's fragment (`#link=dl1.…`).
   */
  url: string;
  /**
   * When the link stops working (whole seconds).
   */
  expiresAt: string;
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "OrderDeliveryLog".
 */
export interface OrderDeliveryLog {
  orderId: string;
  data: {
    deliveryId: string;
    eventId: string;
    event: string;
    status: 'pending' | 'delivered' | 'failed' | 'stopped';
    nextAttemptAt: string | null;
    deliveredAt: string | null;
    attempts: {
      attempt: number;
      isResent: boolean;
      startedAt: string;
      statusCode: number | null;
      latencyMs: number | null;
      error: string | null;
      succeeded: boolean;
      [k: string]: unknown | undefined;
    }[];
    endpointId: string;
    [k: string]: unknown | undefined;
  }[];
  [k: string]: unknown | undefined;
}
/**
 * This document (OpenAPI 3.1).
 *
 * This interface was referenced by `PaymentRescueApi`'s JSON-Schema
 * via the `definition` "OpenApiDocument".
 */
export interface OpenApiDocument {
  openapi: string;
  info: {
    [k: string]: unknown | undefined;
  };
  paths: {
    [k: string]: unknown | undefined;
  };
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
      | 'dashboard_link_invalid'
      | 'dashboard_link_expired'
      | 'invalid_admin_token'
      | 'merchant_forbidden'
      | 'insufficient_scope'
      | 'dashboard_closed'
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
      | 'refund_refused_by_processor'
      | 'capture_refused_by_processor'
      | 'give_back_refused_by_processor'
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
    /**
     * The error's row on the API's error page (`/docs/errors#<id>`, relative to the API).
     */
    doc_url: string;
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
  /**
   * The error's row on the API's error page, relative to the API (RFC 6749).
   */
  error_uri: string;
  /**
   * The same link, named as in the other errors.
   */
  doc_url: string;
  requestId: string;
}
