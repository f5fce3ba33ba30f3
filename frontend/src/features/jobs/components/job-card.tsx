import { Group } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { CardBadge, ContentCard } from '@/components/content-card';
import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format';
import { CATEGORY_LABEL } from '@/lib/categories';
import { type Locale } from '@site/locale';
import type { RemoteJob } from '../api/get-remote-jobs';
import { EMPLOYMENT_TYPE_LABEL } from './labels';

/** The columns of public.jobs a list entry shows (those of /working-remote-jobs); `remote` only where the list mixes both. */
export type JobCardData = Omit<RemoteJob, 'language'> & { remote?: boolean };

/**
 * One job ad in a list (/jobs, /working-remote-jobs) in the shared card design (issue 18): the
 * category as kicker, the title linking to /jobs/{id}, city and posting date in the page's
 * locale, the company in the owner's place, a remote badge and the employment type (spec §2).
 * Renders an `<li>`; the title is the card's only link.
 */
export function JobCard({ job, locale }: { job: JobCardData; locale: Locale }) {
  const intl = useIntl();
  const typeLabel = EMPLOYMENT_TYPE_LABEL[job.employment_type];
  const categoryLabel = job.category ? CATEGORY_LABEL[job.category] : undefined;
  return (
    <li>
      <ContentCard
        to={paths.job(job.id)}
        title={job.title}
        kicker={categoryLabel ? <FormattedMessage id={categoryLabel} /> : undefined}
        meta={[job.city, intl.formatMessage({ id: 'remoteJobs.posted' }, { date: formatDate(job.posted_at, locale) })].filter(Boolean).join(' · ')}
        owner={{ name: job.company, img: null }}
        badge={
          <Group gap={4} wrap="nowrap">
            {job.remote && (
              <CardBadge tone="teal">
                <FormattedMessage id="jobs.remote" />
              </CardBadge>
            )}
            <CardBadge>{typeLabel ? <FormattedMessage id={typeLabel} /> : job.employment_type}</CardBadge>
          </Group>
        }
        action={<FormattedMessage id="card.action.job" />}
      />
    </li>
  );
}
