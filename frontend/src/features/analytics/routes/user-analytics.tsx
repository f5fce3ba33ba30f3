import { Text, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import type { PageProps } from '@/lib/route-def';
import { AnalyticsView } from '../components/analytics-view';

/**
 * /user/analytics (issue 15): the analytics of the signed-in user's profile, projects, jobs and
 * events (Premium or better; the upgrade path below).
 */
export default function UserAnalyticsRoute(_props: PageProps) {
  return (
    <AnalyticsView
      heading={
        <>
          <Title order={1}>
            <FormattedMessage id="page.user-analytics.title" />
          </Title>
          <Text c="dimmed">
            <FormattedMessage id="analytics.intro" />
          </Text>
        </>
      }
    />
  );
}
