import { Group } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { ContentPage, type ContentSection } from '@/components/content-page';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';

const SECTIONS: readonly ContentSection[] = [
  { title: 'about.mission.title', body: ['about.mission.body'] },
  { title: 'about.audience.title', body: ['about.audience.body'] },
  { title: 'about.network.title', body: ['about.network.body'] },
  { title: 'about.germany.title', body: ['about.germany.body'] },
];

/** `/ueber-teamwerk`: about the product. */
export default function AboutRoute() {
  return (
    <ContentPage titleId="about.title" introId="about.intro" sections={SECTIONS}>
      <Group>
        <LocalButtonLink to={paths.registration}>
          <FormattedMessage id="about.cta" />
        </LocalButtonLink>
        <LocalButtonLink to={paths.contact} variant="subtle">
          <FormattedMessage id="about.contact" />
        </LocalButtonLink>
      </Group>
    </ContentPage>
  );
}
