import { z } from 'zod';
import * as admin from '../../routes/admin';
import * as applications from '../../routes/applications';
import * as challenges from '../../routes/challenges';
import * as tokenize from '../../routes/tokenize';
import {
  application,
  applicationList,
  challengeAnswer,
  convertedApplication,
  dispute,
  tokenizeAnswer,
} from '../answers/partners';
import * as example from '../examples/partners';
import { BEARER_ERRORS, type Operation } from '../registry';

const apps = { tag: 'Applications', auth: 'bearer' } as const;
const back = { tag: 'Back office', auth: 'admin' } as const;
/** What an application is after each action, for the examples. */
const after = { submit: example.submitted, cancel: { ...example.application, status: 'CANCELED' } } as const;

/** Tokenization, challenges, partner applications and the operators' back office. */
export const partnerOperations: Operation[] = [
  {
    method: 'post',
    path: '/v1/tokenize',
    operationId: 'tokenize',
    tag: 'Tokenization',
    auth: 'tokenizationKeyOrBearer',
    summary: 'Vault a card number, get a token',
    description:
      "Our body, or Spreedly's `payment_method.credit_card` dialect (docs/compatibility.md). With the tokenization key every call vaults a token of its own (201); with a bearer token the same card answers its existing token (200) and updates its expiry.",
    body: z.union([tokenize.ours, tokenize.spreedly]),
    example: example.tokenizeRequest,
    responses: {
      200: {
        description: 'The card was already vaulted (bearer token only)',
        body: tokenizeAnswer,
        example: example.vaultedCard,
      },
      201: { description: 'Vaulted', body: tokenizeAnswer, example: example.vaultedCard },
    },
    errors: [
      'invalid_tokenization_key',
      'validation_failed',
      'card_number_invalid',
      'card_brand_unsupported',
      'card_expired',
      'sandbox_card_not_allowed',
      'test_card_not_allowed',
      'rate_limited',
    ],
  },
  {
    method: 'post',
    path: '/v1/challenges/:orderSessionKey/:result',
    operationId: 'submitChallengeResult',
    tag: 'Orders',
    auth: 'none',
    summary: "The cardholder challenge's result",
    params: challenges.params.shape,
    responses: {
      200: { description: "The order's status", body: challengeAnswer, example: example.challengeAnswer },
    },
    errors: ['validation_failed', 'order_not_found', 'order_not_in_challenge', 'rate_limited', 'order_outcome_pending'],
  },
  {
    ...apps,
    method: 'post',
    path: '/v1/applications',
    operationId: 'createApplication',
    summary: 'Create a merchant application (partners)',
    body: applications.createBody,
    example: example.applicationRequest,
    responses: { 201: { description: 'The application', body: application, example: example.application } },
    errors: [...BEARER_ERRORS, 'validation_failed'],
  },
  {
    ...apps,
    method: 'get',
    path: '/v1/applications',
    operationId: 'listApplications',
    summary: "A partner's applications",
    query: applications.listQuery,
    responses: { 200: { description: 'The applications', body: applicationList, example: example.applicationList } },
    errors: [...BEARER_ERRORS, 'validation_failed'],
  },
  {
    ...apps,
    method: 'get',
    path: '/v1/applications/:id',
    operationId: 'getApplication',
    summary: 'Get an application',
    responses: { 200: { description: 'The application', body: application, example: example.submitted } },
    errors: [...BEARER_ERRORS, 'application_not_found'],
  },
  ...(['submit', 'cancel'] as const).map(
    (action): Operation => ({
      ...apps,
      operationId: `${action}Application`,
      method: 'post',
      path: `/v1/applications/:id/${action}`,
      summary: `${action === 'submit' ? 'Submit' : 'Cancel'} an application`,
      body: applications.decisionBody,
      example: {},
      responses: { 200: { description: 'The application', body: application, example: after[action] } },
      errors: [...BEARER_ERRORS, 'application_not_found', 'application_transition_not_allowed'],
    }),
  ),
  ...(['approve', 'decline', 'convert'] as const).map(
    (action): Operation => ({
      ...back,
      operationId: `${action}Application`,
      method: 'post',
      path: `/v1/admin/applications/:id/${action}`,
      summary: `${action[0]?.toUpperCase()}${action.slice(1)} an application (operators)`,
      body: applications.decisionBody,
      example: example.decisionRequest,
      responses: {
        200:
          action === 'convert'
            ? {
                description: "The application, and once the new merchant's site and tokenization key",
                body: convertedApplication,
                example: example.converted,
              }
            : {
                description: 'The application',
                body: application,
                example: { ...example.decided, status: action === 'approve' ? 'APPROVED' : 'DECLINED' },
              },
      },
      errors: ['invalid_admin_token', 'application_not_found', 'application_transition_not_allowed'],
    }),
  ),
  ...(['chargebacks', 'early-warnings'] as const).map(
    (kind): Operation => ({
      ...back,
      operationId: kind === 'chargebacks' ? 'recordChargeback' : 'recordEarlyWarning',
      method: 'post',
      path: `/v1/admin/orders/:orderId/${kind}`,
      summary: `Record a ${kind === 'chargebacks' ? 'chargeback' : 'fraud early warning'} (operators)`,
      body: admin.disputeBody,
      example: example.disputeRequest,
      responses: {
        201: {
          description: 'Recorded; its event is sent',
          body: dispute,
          example: kind === 'chargebacks' ? example.dispute : example.earlyWarning,
        },
      },
      errors: ['invalid_admin_token', 'validation_failed', 'order_not_found'],
    }),
  ),
  {
    ...back,
    method: 'post',
    path: '/v1/admin/chargebacks/:id/reverse',
    operationId: 'reverseChargeback',
    summary: 'Reverse a chargeback (operators)',
    responses: { 200: { description: 'Reversed; its event is sent', body: dispute, example: example.reversed } },
    errors: ['invalid_admin_token', 'event_not_found', 'chargeback_not_reversible'],
  },
];
