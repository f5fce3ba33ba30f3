/** A subscription plan as sold on /prices (spec §6, §9). */
export interface Plan {
  id: 'basic' | 'premium' | 'enterprise';
  /** Monthly price in whole euros, VAT included. */
  monthlyEuros: number;
  /** Message ids of the feature bullets, in display order. */
  featureKeys: readonly string[];
  /** Message id of the line naming the plan this one builds on, if any. */
  includesKey?: string;
  highlighted?: boolean;
}

/** The three plans: Basic 19 €, Premium 49 €, Enterprise 99 € (spec §9) with their features (spec §6). */
export const PLANS: readonly Plan[] = [
  {
    id: 'basic',
    monthlyEuros: 19,
    featureKeys: ['prices.feature.projects3', 'prices.feature.basicMatching', 'prices.feature.community', 'prices.feature.emailSupport'],
  },
  {
    id: 'premium',
    monthlyEuros: 49,
    includesKey: 'prices.includes.basic',
    highlighted: true,
    featureKeys: [
      'prices.feature.unlimitedProjects',
      'prices.feature.advancedMatching',
      'prices.feature.searchPreference',
      'prices.feature.premiumProfile',
      'prices.feature.prioritySupport',
    ],
  },
  {
    id: 'enterprise',
    monthlyEuros: 99,
    includesKey: 'prices.includes.premium',
    featureKeys: [
      'prices.feature.corporateProfiles',
      'prices.feature.analytics',
      'prices.feature.customMatching',
      'prices.feature.apiAccess',
      'prices.feature.accountManager',
      'prices.feature.support247',
    ],
  },
];
