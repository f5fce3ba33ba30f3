import { NativeSelect } from '@mantine/core';
import { useIntl } from 'react-intl';
import { useSession } from '@/lib/session';
import { useMyOrganizations } from '../api/get-organizations';

/**
 * "Publish as" of the project, job and event forms (issue 15): the signed-in user themself or one of
 * their organisations; the value is the organisation id or '' for "myself". Renders nothing for a
 * user without organisations (unless `required`, e.g. jobs, which only organisations publish).
 * The database checks membership again (private.check_content_organization).
 * @param value organisation id or ''
 * @param onChange called with the new organisation id or ''
 * @param allowSelf false where only organisations publish (jobs of non-admins)
 */
export function PublishAsSelect({
  value,
  onChange,
  allowSelf = true,
  error,
}: {
  value: string;
  onChange: (organizationId: string) => void;
  allowSelf?: boolean;
  error?: string;
}) {
  const intl = useIntl();
  const userId = useSession().user?.id;
  const orgs = useMyOrganizations(userId);
  if (allowSelf && (!orgs.data || orgs.data.length === 0)) return null;
  const data = [
    ...(allowSelf ? [{ value: '', label: intl.formatMessage({ id: 'org.publishAs.self' }) }] : [{ value: '', label: intl.formatMessage({ id: 'org.publishAs.choose' }) }]),
    ...(orgs.data ?? []).map((org) => ({ value: org.id, label: org.name })),
  ];
  return (
    <NativeSelect
      label={intl.formatMessage({ id: 'org.publishAs.label' })}
      description={intl.formatMessage({ id: 'org.publishAs.hint' })}
      data={data}
      value={value}
      disabled={orgs.isPending}
      error={error}
      onChange={(event) => onChange(event.currentTarget.value)}
      data-testid="publish-as"
    />
  );
}
