/**
 * Public entry of the organisations feature: publishing projects, jobs and events under an
 * organisation (select, byline), the caller's organisations and membership of one (analytics, API
 * access), and what the public organisation page (profiles) shows.
 */
export {
  descriptionFor,
  type MyOrganization,
  myOrganizationsQuery,
  organizationContentQuery,
  organizationLogoUrl,
  organizationQuery,
  orgErrorId,
  publicMembersQuery,
  ROLE_LABEL,
  useMyOrganizations,
  useOrgMembership,
} from './api/organizations';
export { SIZE_LABEL } from './components/labels';
export { OrganizationByline } from './components/organization-byline';
export { PublishAsSelect } from './components/publish-as-select';
