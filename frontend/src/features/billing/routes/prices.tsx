import { Badge, Card, Container, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { formatEuro } from '@/lib/format';
import type { PageProps } from '@/lib/route-def';
import { PLANS } from '../plans';

const PLAN_NAME = { basic: 'prices.plan.basic', premium: 'prices.plan.premium', enterprise: 'prices.plan.enterprise' } as const;

/** `/prices`: the three plan cards; checkout arrives with the payments issue (spec §2, §6, §9). */
export default function PricesRoute({ locale }: PageProps) {
  return (
    <Container size="lg" py="xl">
      <Stack gap="xs" mb="xl" ta="center" align="center">
        <Title order={1}>
          <FormattedMessage id="prices.title" />
        </Title>
        <Text maw={640}>
          <FormattedMessage id="prices.intro" />
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
        {PLANS.map((plan) => (
          <Card
            key={plan.id}
            withBorder
            padding="xl"
            component="article"
            aria-labelledby={`plan-${plan.id}`}
            data-testid={`plan-${plan.id}`}
            style={plan.highlighted ? { borderColor: 'var(--mantine-color-blue-8)', borderWidth: 2 } : undefined}
          >
            <Stack gap="sm" style={{ height: '100%' }}>
              {plan.highlighted && (
                <Badge color="blue.9" variant="filled" style={{ alignSelf: 'flex-start' }}>
                  <FormattedMessage id="prices.popular" />
                </Badge>
              )}
              <Title order={2} fz="xl" id={`plan-${plan.id}`}>
                <FormattedMessage id={PLAN_NAME[plan.id]} />
              </Title>
              <Text>
                <Text component="span" fz={36} fw={800} data-testid={`price-${plan.id}`}>
                  {formatEuro(plan.monthlyEuros, locale)}
                </Text>{' '}
                <FormattedMessage id="prices.perMonth" />
              </Text>
              <Text fz="sm">
                <FormattedMessage id="prices.vatIncluded" />
              </Text>
              {plan.includesKey && (
                <Text fw={600} fz="sm">
                  <FormattedMessage id={plan.includesKey} />
                </Text>
              )}
              <List spacing={4} fz="sm" style={{ flex: 1 }}>
                {plan.featureKeys.map((key) => (
                  <List.Item key={key}>
                    <FormattedMessage id={key} />
                  </List.Item>
                ))}
              </List>
              {plan.id === 'enterprise' ? (
                <LocalButtonLink to={paths.contactTopic('enterprise')} variant="outline" fullWidth>
                  <FormattedMessage id="prices.contactUs" />
                </LocalButtonLink>
              ) : (
                <LocalButtonLink to={paths.registration} variant={plan.highlighted ? 'filled' : 'outline'} fullWidth>
                  <FormattedMessage id="prices.choose" />
                </LocalButtonLink>
              )}
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
      <Text ta="center" mt="lg" fz="sm">
        <FormattedMessage id="prices.haveAccount" />{' '}
        <LocalButtonLink to={paths.login} variant="subtle" size="compact-sm">
          <FormattedMessage id="prices.login" />
        </LocalButtonLink>
      </Text>
    </Container>
  );
}
