import { ContentPage, type ContentSection } from '@/components/content-page';

/** Terms of use in the usual order of German AGB; § 312k BGB cancellation button in "term". */
const SECTIONS: readonly ContentSection[] = [
  { title: 'terms.scope.title', body: ['terms.scope.body'] },
  { title: 'terms.contract.title', body: ['terms.contract.body'] },
  { title: 'terms.services.title', body: ['terms.services.body'] },
  { title: 'terms.prices.title', body: ['terms.prices.body'] },
  { title: 'terms.term.title', body: ['terms.term.body'] },
  { title: 'terms.duties.title', body: ['terms.duties.body'] },
  { title: 'terms.content.title', body: ['terms.content.body'] },
  { title: 'terms.liability.title', body: ['terms.liability.body'] },
  { title: 'terms.privacy.title', body: ['terms.privacy.body'] },
  { title: 'terms.final.title', body: ['terms.final.body'] },
];

/** `/legal/nutzungsvereinbarung`: terms of use. */
export default function TermsRoute() {
  return <ContentPage titleId="terms.title" legal sections={SECTIONS} />;
}
