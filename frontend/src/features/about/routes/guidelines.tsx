import { ContentPage, type ContentSection } from '@/components/content-page';

const SECTIONS: readonly ContentSection[] = [
  { title: 'guidelines.respect.title', body: ['guidelines.respect.body'] },
  { title: 'guidelines.honesty.title', body: ['guidelines.honesty.body'] },
  { title: 'guidelines.privacy.title', body: ['guidelines.privacy.body'] },
  { title: 'guidelines.spam.title', body: ['guidelines.spam.body'] },
  { title: 'guidelines.rights.title', body: ['guidelines.rights.body'] },
  { title: 'guidelines.reporting.title', body: ['guidelines.reporting.body'] },
];

/** `/our-guidelines`: community rules. */
export default function GuidelinesRoute() {
  return <ContentPage titleId="guidelines.title" introId="guidelines.intro" sections={SECTIONS} />;
}
