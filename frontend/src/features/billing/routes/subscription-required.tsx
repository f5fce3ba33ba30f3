import { Card, Container, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { LocalButtonLink, LocalLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { formatEuro } from '@/lib/format';
import type { PageProps } from '@/lib/route-def';
import { useSession } from '@/lib/session';
import { PlanPreview } from '../components/plan-preview';
import { usePlans } from '../api/get-prices';
import { PLAN_NAME_ID } from '../labels';
import { PLANS } from '../plans';

/**
 * `/subscription-required`: where the payment-required guard sends users without a paid plan
 * (spec §6); explains the plans and links to /prices. A signed-in member also sees what a plan
 * would unlock for them and the way to their account page (password, data export, deletion),
 * which needs no plan (issue 32 §5).
 */
export default function SubscriptionRequiredRoute({ locale }: PageProps) {
  const plans = usePlans();
  const signedIn = useSession().status === 'signed-in';
  return (
    <Container size="md" py="xl">
      <Stack>
        <Title order={1}>
          <FormattedMessage id="subscriptionRequired.title" />
        </Title>
        <Text>
          <FormattedMessage id="subscriptionRequired.text" />
        </Text>
        {signedIn && <PlanPreview withPlansLink={false} />}
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {PLANS.map((plan) => {
            const monthly = plans.data?.find((p) => p.id === plan.id)?.prices.monthly;
            return (
              <Card key={plan.id} withBorder padding="md" data-testid={`required-plan-${plan.id}`}>
                <Text fw={700}>
                  <FormattedMessage id={PLAN_NAME_ID[plan.id]!} />
                </Text>
                {monthly ? (
                  <Text fz="sm">
                    {formatEuro(monthly.amountCents / 100, locale)} <FormattedMessage id="prices.per.monthly" />
                  </Text>
                ) : plans.isPending ? (
                  <Skeleton height={16} mt={4} aria-hidden />
                ) : null}
                <Text fz="sm" c="dimmed" mt={4}>
                  <FormattedMessage id={plan.featureKeys[0]!} />
                </Text>
              </Card>
            );
          })}
        </SimpleGrid>
        <Group>
          <LocalButtonLink to={paths.prices}>
            <FormattedMessage id="subscriptionRequired.cta" />
          </LocalButtonLink>
          <LocalButtonLink to={paths.contact} variant="subtle">
            <FormattedMessage id="subscriptionRequired.contact" />
          </LocalButtonLink>
        </Group>
        {signedIn && (
          <Text data-testid="paywall-account">
            <FormattedMessage id="subscriptionRequired.account" />{' '}
            <LocalLink to={paths.user.account} fw={600}>
              <FormattedMessage id="subscriptionRequired.accountLink" />
            </LocalLink>
          </Text>
        )}
      </Stack>
    </Container>
  );
}
