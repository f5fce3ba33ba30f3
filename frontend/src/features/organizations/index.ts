/**
 * Public entry of the organisations feature: publishing projects, jobs and events under an
 * organisation (select, byline), the caller's organisations and membership of one (analytics, API
 * access), and what the public organisation page (profiles) shows.
 */
export {
  type MyOrganization,
  myOrganizationsQuery,
  organizationContentQuery,
  organizationQuery,
  publicMembersQuery,
  useMyOrganizations,
  useOrgMembership,
} from './api/get-organizations';
export { descriptionFor, organizationLogoUrl, ROLE_LABEL } from './api/organization';
export { orgErrorId } from './api/organization-errors';
export { SIZE_LABEL } from './components/labels';
export { OrganizationByline } from './components/organization-byline';
export { PublishAsSelect } from './components/publish-as-select';
