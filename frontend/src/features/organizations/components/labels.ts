/** Message ids of the company sizes (organizations.size, issue 15). */
export const SIZE_LABEL: Readonly<Record<string, string>> = {
  '1-10': 'org.size.1-10',
  '11-50': 'org.size.11-50',
  '51-200': 'org.size.51-200',
  '201-1000': 'org.size.201-1000',
  '1001+': 'org.size.1001plus',
};
