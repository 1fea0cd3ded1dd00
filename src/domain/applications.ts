/**
 * Partner onboarding applications: exactly the interface's transition table. Each transition
 * fires the event of the same name (note the single-l "canceled").
 */
export const APPLICATION_STATUSES = ['DRAFT', 'SUBMITTED', 'APPROVED', 'DECLINED', 'CONVERTED', 'CANCELED'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

export type ApplicationAction = 'submit' | 'cancel' | 'approve' | 'decline' | 'convert';

const TRANSITIONS: Record<
  ApplicationAction,
  { from: readonly ApplicationStatus[] | 'any'; to: ApplicationStatus; event: string }
> = {
  submit: { from: ['DRAFT'], to: 'SUBMITTED', event: 'application.submitted' },
  // "Any status": every status but CANCELED itself (cancelling twice would announce it twice).
  cancel: { from: 'any', to: 'CANCELED', event: 'application.canceled' },
  approve: { from: ['SUBMITTED'], to: 'APPROVED', event: 'application.approved' },
  decline: { from: ['SUBMITTED'], to: 'DECLINED', event: 'application.declined' },
  convert: { from: ['APPROVED'], to: 'CONVERTED', event: 'application.converted' },
};

/** Who may take each action: the partner that owns the application, or the service's operators. */
export const ACTION_BY: Record<ApplicationAction, 'partner' | 'operator'> = {
  submit: 'partner',
  cancel: 'partner',
  approve: 'operator',
  decline: 'operator',
  convert: 'operator',
};

export function transition(
  current: ApplicationStatus,
  action: ApplicationAction,
): { to: ApplicationStatus; event: string } | undefined {
  const t = TRANSITIONS[action];
  const allowed = t.from === 'any' ? current !== 'CANCELED' : t.from.includes(current);
  return allowed ? { to: t.to, event: t.event } : undefined;
}
