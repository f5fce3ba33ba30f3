import { Text } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { LocalLink } from '@/components/local-link';
import { paths } from '@/config/paths';

/** The organisation a project, job or event is published under, as embedded by PostgREST. */
export interface OrganizationRef {
  slug: string;
  name: string;
}

/**
 * "Published by {organisation}" with a link to /org/{slug} (issue 15), for detail pages; nothing
 * when the item is not published under an organisation.
 */
export function OrganizationByline({ organization }: { organization: OrganizationRef | null | undefined }) {
  if (!organization) return null;
  return (
    <Text data-testid="published-by-org">
      <FormattedMessage
        id="org.publishedBy"
        values={{
          name: (
            <LocalLink key="org" to={paths.org.page(organization.slug)} fw={600}>
              {organization.name}
            </LocalLink>
          ),
        }}
      />
    </Text>
  );
}
