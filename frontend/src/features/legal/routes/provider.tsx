import { ContentPage, type ContentSection } from '@/components/content-page';

/** Provider identification for contracts concluded online (Art. 246a § 1 EGBGB, § 5 DDG). */
const SECTIONS: readonly ContentSection[] = [
  { title: 'provider.identity.title', body: ['provider.identity.body'] },
  { title: 'provider.contact.title', body: ['provider.contact.body'] },
  { title: 'provider.register.title', body: ['provider.register.body'] },
  { title: 'provider.contractLanguage.title', body: ['provider.contractLanguage.body'] },
  { title: 'provider.storage.title', body: ['provider.storage.body'] },
  { title: 'provider.dispute.title', body: ['provider.dispute.body'] },
];

/** `/legal/anbieterkennzeichnung`: who the contract partner is. */
export default function ProviderRoute() {
  return <ContentPage titleId="provider.title" legal sections={SECTIONS} />;
}
