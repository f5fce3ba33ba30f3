import { ContentPage, type ContentSection } from '@/components/content-page';

/** Information duties of Art. 13 GDPR and § 25 TDDDG, one section each. */
const SECTIONS: readonly ContentSection[] = [
  { title: 'privacy.controller.title', body: ['privacy.controller.body'] },
  { title: 'privacy.dpo.title', body: ['privacy.dpo.body'] },
  { title: 'privacy.hosting.title', body: ['privacy.hosting.body'] },
  { title: 'privacy.account.title', body: ['privacy.account.body'] },
  { title: 'privacy.payments.title', body: ['privacy.payments.body'] },
  { title: 'privacy.email.title', body: ['privacy.email.body'] },
  { title: 'privacy.contact.title', body: ['privacy.contact.body'] },
  { title: 'privacy.newsletter.title', body: ['privacy.newsletter.body'] },
  { title: 'privacy.cookies.title', body: ['privacy.cookies.body'] },
  { title: 'privacy.recipients.title', body: ['privacy.recipients.body'] },
  { title: 'privacy.retention.title', body: ['privacy.retention.body', 'privacy.retention.periods'] },
  { title: 'privacy.rights.title', body: ['privacy.rights.body'] },
  { title: 'privacy.complaint.title', body: ['privacy.complaint.body'] },
  { title: 'privacy.obligation.title', body: ['privacy.obligation.body'] },
];

/** `/legal/Datenschutzhinweise`: privacy notice (GDPR Art. 13, TDDDG). */
export default function PrivacyRoute() {
  return <ContentPage titleId="privacy.title" introId="privacy.intro" legal sections={SECTIONS} />;
}
