import { ContentPage, type ContentSection } from '@/components/content-page';

/** §5 DDG: name/legal form, representative, address, contact, register, VAT id; §18 MStV; VSBG. */
const SECTIONS: readonly ContentSection[] = [
  { title: 'impressum.provider.title', body: ['impressum.provider.body'] },
  { title: 'impressum.represented.title', body: ['impressum.represented.body'] },
  { title: 'impressum.contact.title', body: ['impressum.contact.body'] },
  { title: 'impressum.register.title', body: ['impressum.register.body'] },
  { title: 'impressum.vat.title', body: ['impressum.vat.body'] },
  { title: 'impressum.editorial.title', body: ['impressum.editorial.body'] },
  { title: 'impressum.dispute.title', body: ['impressum.dispute.body'] },
  { title: 'impressum.liability.title', body: ['impressum.liability.body'] },
];

/** `/impressum`: provider identification with the fields §5 DDG requires (placeholders marked). */
export default function ImpressumRoute() {
  return <ContentPage titleId="impressum.title" legal sections={SECTIONS} />;
}
