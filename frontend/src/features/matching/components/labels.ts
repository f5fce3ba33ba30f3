import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { CATEGORY_LABEL } from '@/lib/categories';
import { skillsQuery } from '../api/get-match-profiles';
import type { Skill } from '../api/match-profile';
import { COMMITMENT_IDS, KIND_IDS, ROLE_IDS } from '../api/message-ids';
import type { ReasonLabels } from '../api/reasons';

/** Message id of a kind, role, commitment or stage key (issue 19 enums). */
export const kindId = (k: string) => KIND_IDS[k] ?? 'matching.reason.unknown';
export const roleId = (k: string) => ROLE_IDS[k] ?? 'matching.reason.unknown';
export const commitmentId = (k: string) => COMMITMENT_IDS[k] ?? 'matching.reason.unknown';
export const stageId = (k: string) => `projects.stage.${k}`;
export const industryId = (k: string) => CATEGORY_LABEL[k] ?? 'search.category.other';

/** Label of a skill key in the page's language (the key itself when unknown). */
export function skillLabel(skills: readonly Skill[] | undefined, key: string, locale: string): string {
  const s = skills?.find((x) => x.key === key);
  if (!s) return key;
  return locale === 'de' ? s.label_de : s.label_en;
}

/**
 * Labels for reasons and cards in the page's language: enums via react-intl, skills from the
 * vocabulary (public.skills label_en / label_de), languages via Intl.DisplayNames.
 */
export function useMatchLabels(): ReasonLabels & { skills: Skill[] | undefined } {
  const intl = useIntl();
  const skills = useQuery(skillsQuery()).data;
  return useMemo(() => {
    const t = (id: string) => intl.formatMessage({ id });
    const names = new Intl.DisplayNames([intl.locale], { type: 'language' });
    return {
      skills,
      role: (k) => t(roleId(k)),
      kind: (k) => t(kindId(k)),
      commitment: (k) => t(commitmentId(k)),
      stage: (k) => t(stageId(k)),
      industry: (k) => t(industryId(k)),
      skill: (k) => skillLabel(skills, k, intl.locale),
      language: (c) => names.of(c) ?? c,
      list: (items) => intl.formatList(items, { type: 'conjunction' }),
      date: (iso) => intl.formatDate(iso, { dateStyle: 'medium', timeZone: 'UTC' }),
    };
  }, [intl, skills]);
}
