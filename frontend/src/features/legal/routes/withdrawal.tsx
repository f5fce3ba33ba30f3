import { ContentPage, type ContentSection } from '@/components/content-page';

/** Structure of the statutory model (Anlage 1 zu Art. 246a § 1 Abs. 2 EGBGB) for services. */
const SECTIONS: readonly ContentSection[] = [
  { title: 'withdrawal.right.title', body: ['withdrawal.right.body1', 'withdrawal.right.body2', 'withdrawal.right.body3'] },
  { title: 'withdrawal.consequences.title', body: ['withdrawal.consequences.body1', 'withdrawal.consequences.body2'] },
  { title: 'withdrawal.expiry.title', body: ['withdrawal.expiry.body'] },
  { title: 'withdrawal.form.title', body: ['withdrawal.form.body'] },
];

/** `/legal/widerufsbelehrung`: cancellation policy with the model withdrawal form. */
export default function WithdrawalRoute() {
  return <ContentPage titleId="withdrawal.title" legal sections={SECTIONS} />;
}
