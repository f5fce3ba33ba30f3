import { Container, Group, List, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FormattedMessage } from 'react-intl';
import { LocalButtonLink } from '@/components/local-link';
import { getSessionUserId } from '@/lib/session';
import { paths } from '@/config/paths';
import { PageHeader } from '@/components/page-header';

/**
 * `/portfolio/create`: entry for visitors. Logged out it leads to registration or the plan choice;
 * signed in it leads to the portfolio form (the payment guard there sends free users to a plan).
 */
export default function PortfolioCreateRoute() {
  const session = useQuery({ queryKey: ['session', 'has-user'], queryFn: async () => (await getSessionUserId()) !== null });
  return (
    <Container size="sm" py="xl">
      <Stack>
        <PageHeader title={<FormattedMessage id="page.portfolio-create.title" />} description={<FormattedMessage id="portfolios.entry.intro" />} />
        <List>
          <List.Item>
            <FormattedMessage id="portfolios.entry.point1" />
          </List.Item>
          <List.Item>
            <FormattedMessage id="portfolios.entry.point2" />
          </List.Item>
          <List.Item>
            <FormattedMessage id="portfolios.entry.point3" />
          </List.Item>
        </List>
        {session.data ? (
          <LocalButtonLink to={paths.user.createPortfolio} style={{ alignSelf: 'flex-start' }}>
            <FormattedMessage id="portfolios.entry.start" />
          </LocalButtonLink>
        ) : (
          <Group>
            <LocalButtonLink to={paths.registration}>
              <FormattedMessage id="portfolios.entry.register" />
            </LocalButtonLink>
            <LocalButtonLink to={paths.prices} variant="default">
              <FormattedMessage id="portfolios.entry.plans" />
            </LocalButtonLink>
          </Group>
        )}
      </Stack>
    </Container>
  );
}
