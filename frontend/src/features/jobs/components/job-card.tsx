import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { LocalLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format';
import type { Locale } from '@/lib/constants';
import type { RemoteJob } from '../api/get-remote-jobs';
import { EMPLOYMENT_TYPE_LABEL } from './labels';

/** The columns of public.jobs a list entry shows (those of /working-remote-jobs); `remote` only where the list mixes both. */
export type JobCardData = Omit<RemoteJob, 'language'> & { remote?: boolean };

/**
 * One job ad in a list (/jobs, /working-remote-jobs): title linking to /jobs/{id}, company and city,
 * a remote badge, the employment type and the posting date in the page's locale (spec §2).
 */
export function JobCard({ job, locale }: { job: JobCardData; locale: Locale }) {
  const typeLabel = EMPLOYMENT_TYPE_LABEL[job.employment_type];
  return (
    <Card component="li" withBorder padding="md">
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <LocalLink to={paths.job(job.id)} fw={700}>
            {job.title}
          </LocalLink>
          <Text fz="sm">
            {job.company}
            {job.city ? ` · ${job.city}` : ''}
          </Text>
        </Stack>
        <Stack gap={4} align="flex-end">
          <Group gap={4}>
            {job.remote && (
              <Badge variant="outline" color="var(--tw-teal)">
                <FormattedMessage id="jobs.remote" />
              </Badge>
            )}
            <Badge variant="outline" color="var(--tw-blue)">
              {typeLabel ? <FormattedMessage id={typeLabel} /> : job.employment_type}
            </Badge>
          </Group>
          <Text fz="xs">
            <FormattedMessage id="remoteJobs.posted" values={{ date: formatDate(job.posted_at, locale) }} />
          </Text>
        </Stack>
      </Group>
    </Card>
  );
}
