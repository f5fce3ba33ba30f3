import { Alert, Button, Card, Container, Group, List, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { type Locale } from '@site/locale';
import { formatDate } from '@/lib/format';
import { confirmSubscriptionActive, type VerifiedPayment, verifyPayment } from '../api/verify-payment';
import { PLAN_NAME_ID } from '../labels';
import { failureFor } from '../verification-messages';

/** Steps of the payment flow (spec §4): processing subscription → verifying payment → profile update → confirmed. */
export type PaymentStep = 'processing' | 'verifying' | 'updating' | 'confirmed' | 'failed';

const STEPS = [
  { step: 'processing', label: 'billing.verify.step.processing' },
  { step: 'verifying', label: 'billing.verify.step.verifying' },
  { step: 'updating', label: 'billing.verify.step.updating' },
] as const;
/** A failure of one step of the flow, keeping the original error. */
class StageError extends Error {
  readonly stage: 'verify' | 'update';

  constructor(stage: 'verify' | 'update', cause?: unknown) {
    super(cause instanceof Error ? cause.message : stage, { cause });
    this.stage = stage;
  }
}

const ORDER: Record<PaymentStep, number> = { processing: 0, verifying: 1, updating: 2, confirmed: 3, failed: -1 };

/**
 * The payment flow after Stripe Checkout: verifies the session (verify-payment syncs the
 * subscription), then checks that the database grants the paid area (profile update), with
 * retry on failure. Used by /signup?session_id and /payment/success.
 */
export function PaymentVerification({ sessionId, variant, locale }: { sessionId: string | null; variant: 'success' | 'signup'; locale: Locale }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [attempt, setAttempt] = useState(0);
  const [phase, setPhase] = useState<'verifying' | 'updating'>('verifying');

  // verify-payment is idempotent (it re-syncs from Stripe), so a retry simply runs the flow again.
  const flow = useQuery({
    queryKey: ['payment-verification', sessionId, attempt],
    enabled: !!sessionId,
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
    queryFn: async (): Promise<VerifiedPayment> => {
      let verified: VerifiedPayment;
      try {
        verified = await verifyPayment(sessionId!);
      } catch (error) {
        throw new StageError('verify', error);
      }
      setPhase('updating');
      const active = await confirmSubscriptionActive().catch(() => false);
      if (!active) throw new StageError('update');
      await queryClient.invalidateQueries({ queryKey: ['billing'] });
      return verified;
    },
  });

  const retry = () => {
    setPhase('verifying');
    setAttempt((n) => n + 1);
  };

  const result = flow.data ?? null;
  const stageError = flow.error instanceof StageError ? flow.error : flow.error ? new StageError('verify', flow.error) : null;
  const shownFailure = !sessionId ? failureFor(variant, 'missing') : stageError ? failureFor(variant, stageError.stage, stageError.cause) : null;
  const missing = !sessionId;
  const shownStep: PaymentStep = shownFailure ? 'failed' : flow.isSuccess ? 'confirmed' : phase;
  const shownReached = missing ? 0 : shownStep === 'confirmed' ? 3 : stageError ? (stageError.stage === 'update' ? 2 : 1) : phase === 'updating' ? 2 : 1;

  // once confirmed or failed, the heading says so instead of "Activating …" (issue 33 §11)
  const titleId =
    shownStep === 'confirmed'
      ? 'billing.verify.title.done'
      : shownStep === 'failed'
        ? 'billing.verify.title.failed'
        : variant === 'success'
          ? 'billing.verify.title.success'
          : 'billing.verify.title.signup';
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1} data-testid="payment-heading">
          <FormattedMessage id={titleId} />
        </Title>
        <Card withBorder>
          <List spacing="sm" listStyleType="none" aria-label={intl.formatMessage({ id: 'billing.verify.stepsLabel' })}>
            {STEPS.map(({ step: s, label }, index) => {
              const done = shownReached > index;
              const current = ORDER[shownStep] === index;
              const failedHere = shownStep === 'failed' && shownReached === index && !missing;
              return (
                <List.Item
                  key={s}
                  data-testid={`step-${s}`}
                  data-state={failedHere ? 'failed' : current ? 'current' : done ? 'done' : 'pending'}
                  icon={
                    current ? (
                      <Loader size={18} aria-hidden />
                    ) : (
                      <ThemeIcon size={18} radius="xl" color={failedHere ? 'red.8' : done ? 'green.8' : 'gray.6'} aria-hidden>
                        <span style={{ fontSize: 11 }}>{failedHere ? '!' : done ? '✓' : index + 1}</span>
                      </ThemeIcon>
                    )
                  }
                >
                  <FormattedMessage id={label} />
                </List.Item>
              );
            })}
          </List>
        </Card>
        <div aria-live="polite">
          {shownStep === 'confirmed' && result && (
            <Alert color="green" role="status" data-testid="payment-confirmed" title={intl.formatMessage({ id: 'billing.verify.confirmed' })}>
              <Stack gap="xs">
                <Text>
                  <FormattedMessage
                    id="billing.verify.confirmedText"
                    values={{
                      plan: PLAN_NAME_ID[result.planId] ? intl.formatMessage({ id: PLAN_NAME_ID[result.planId] }) : result.planId,
                      date: result.periodEnd ? formatDate(result.periodEnd, locale) : '' }}
                  />
                </Text>
                <Group>
                  <LocalButtonLink to={paths.user.home}>
                    <FormattedMessage id="billing.verify.toUserArea" />
                  </LocalButtonLink>
                  <LocalButtonLink to={paths.user.settings} variant="subtle">
                    <FormattedMessage id="billing.verify.toSettings" />
                  </LocalButtonLink>
                </Group>
              </Stack>
            </Alert>
          )}
          {shownStep === 'failed' && shownFailure && (
            <Alert color="red" role="alert" data-testid="payment-failed">
              <Stack gap="sm">
                <Text>
                  <FormattedMessage id={shownFailure.messageId} values={shownFailure.values} />
                </Text>
                <Group>
                  {shownFailure.retry && (
                    <Button onClick={retry} data-testid="payment-retry">
                      <FormattedMessage id="common.retry" />
                    </Button>
                  )}
                  <LocalButtonLink to={paths.contactTopic('support')} variant="subtle">
                    <FormattedMessage id="billing.verify.contactSupport" />
                  </LocalButtonLink>
                </Group>
              </Stack>
            </Alert>
          )}
        </div>
      </Stack>
    </Container>
  );
}
