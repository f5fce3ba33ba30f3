/**
 * What the API exposes (issue 12): for every table and view in the `public` schema (the schema
 * PostgREST serves) the columns each API role may read and write, and for every function there
 * who may execute it and what it returns. The migrations grant exactly this; the test
 * `supabase/tests/exposure.test.ts` compares it with the live database and with what each role
 * actually gets through PostgREST, so an undeclared table, column, view or function fails.
 *
 * Row visibility is row-level security's job (see `rows`; supabase/tests/rls-matrix.test.ts holds
 * it); this file is about columns. `personal` names the columns that carry personal data (e-mail,
 * postal address, Stripe ids, role, account state): they may be readable only where every row a
 * role can see belongs to the reader or the reader is an admin (`rows` = 'own' | 'admin').
 *
 * service_role (Edge Functions) keeps every privilege and is not listed.
 */

/** The two roles a PostgREST request runs as (apikey/JWT); admins are `authenticated` too. */
export type ApiRole = 'anon' | 'authenticated';

/** Who can see which rows of a relation (documentation for the personal-data rule). */
export type RowScope =
  /** any visitor: published content, visible profiles, catalogues */
  | 'public'
  /** the people involved (contacts, chat members, an event's organiser and attendees) and admins */
  | 'participants'
  /** only the row's subject and admins */
  | 'own'
  /** only admins */
  | 'admin'
  /** only the owners and admins of the row's organisation (and platform admins through the service role; issue 15) */
  | 'org_admins';

export interface RelationExposure {
  kind: 'table' | 'view';
  rows: RowScope;
  /** Every column, in table order. A column added by a migration must be listed here. */
  columns: readonly string[];
  /** Columns with personal data (issue 12 finding 1). */
  personal?: readonly string[];
  select: Partial<Record<ApiRole, readonly string[]>>;
  insert?: Partial<Record<ApiRole, readonly string[]>>;
  update?: Partial<Record<ApiRole, readonly string[]>>;
  delete?: readonly ApiRole[];
}

export interface FunctionExposure {
  /** Roles with EXECUTE. */
  execute: readonly ApiRole[];
  /** false when not even the service role may call it (the caller's own account only). */
  serviceRole?: false;
  /** Column names of a table result, or the scalar result type as `pg_get_function_result` prints it. */
  returns: readonly string[] | string;
  /** Whose data the result carries. */
  rows: RowScope | 'none';
  personal?: readonly string[];
}

const PROFILE_PUBLIC = [
  'id', 'slug', 'firstname', 'lastname', 'profile_img', 'type', 'city', 'state', 'latitude', 'longitude', 'headline',
  'bio', 'skills', 'looking_for', 'offering', 'categories', 'logo', 'gallery', 'social_links', 'listed', 'created_at',
  'updated_at', 'show_exact_location',
] as const;

const MESSAGE_COLUMNS = [
  'id', 'conversation_id', 'sender_id', 'body', 'created_at', 'edited_at', 'deleted_at', 'attachment_path',
  'attachment_name', 'attachment_type', 'attachment_size', 'client_id',
] as const;

const PROJECT_PUBLIC = [
  'id', 'owner_id', 'title', 'slug', 'summary', 'description', 'is_private', 'category', 'private_category', 'city',
  'latitude', 'longitude', 'roles_sought', 'stage', 'images', 'status', 'published_at', 'created_at', 'updated_at',
  'organization_id',
] as const;
const PROJECT_WRITE = [
  'title', 'slug', 'summary', 'description', 'is_private', 'category', 'private_category', 'city', 'latitude',
  'longitude', 'roles_sought', 'stage', 'images', 'status', 'organization_id',
] as const;

const PORTFOLIO_PUBLIC = [
  'id', 'owner_id', 'title', 'slug', 'description_de', 'description_en', 'skills', 'links', 'images', 'category', 'city',
  'file_access', 'status', 'published_at', 'created_at', 'updated_at',
] as const;
const PORTFOLIO_WRITE = [
  'title', 'slug', 'description_de', 'description_en', 'skills', 'links', 'images', 'category', 'city', 'file_access', 'status',
] as const;

const EVENT_PUBLIC = [
  'id', 'organizer_id', 'title', 'slug', 'summary', 'description', 'category', 'status', 'is_paid', 'price_cents',
  'currency', 'starts_at', 'ends_at', 'timezone', 'is_online', 'venue_name', 'street', 'zipcode', 'city', 'latitude',
  'longitude', 'capacity', 'going_count', 'waitlist_count', 'image', 'created_at', 'updated_at', 'organization_id',
] as const;
const EVENT_UPDATE = [
  'title', 'summary', 'description', 'category', 'status', 'is_paid', 'price_cents', 'currency', 'starts_at', 'ends_at',
  'timezone', 'is_online', 'venue_name', 'street', 'zipcode', 'city', 'latitude', 'longitude', 'online_url', 'capacity', 'image',
  'organization_id',
] as const;

const JOB_COLUMNS = [
  'id', 'title', 'company', 'company_logo', 'city', 'latitude', 'longitude', 'remote', 'employment_type', 'category',
  'description', 'apply_url', 'salary_min_cents', 'salary_max_cents', 'language', 'posted_by', 'posted_at', 'expires_at',
  'created_at', 'updated_at', 'organization_id',
] as const;
const JOB_UPDATE = [
  'title', 'company', 'company_logo', 'city', 'latitude', 'longitude', 'remote', 'employment_type', 'category',
  'description', 'apply_url', 'salary_min_cents', 'salary_max_cents', 'language', 'expires_at', 'organization_id',
] as const;

// issue 15: organisations (public page columns; billing columns seats, subscription_id, created_by stay private)
const ORGANIZATION_PUBLIC = [
  'id', 'slug', 'name', 'logo_path', 'description_en', 'description_de', 'website', 'industry', 'size', 'street',
  'postal_code', 'city', 'country', 'display_address', 'created_at', 'updated_at',
] as const;
const ORGANIZATION_UPDATE = [
  'name', 'logo_path', 'description_en', 'description_de', 'website', 'industry', 'size', 'street', 'postal_code', 'city', 'country',
] as const;
const ORGANIZATION_INVITATION_READ = [
  'id', 'organization_id', 'email', 'role', 'invited_by', 'locale', 'expires_at', 'accepted_at', 'declined_at', 'revoked_at', 'created_at',
] as const;

const PUBLIC_CARD = [
  'id', 'slug', 'firstname', 'lastname', 'display_name', 'display_address', 'type', 'profile_img', 'headline', 'bio',
  'skills', 'looking_for', 'offering', 'categories', 'logo', 'gallery', 'social_links', 'city', 'state', 'latitude',
  'longitude', 'listed', 'premium_profile', 'created_at', 'updated_at',
] as const;
const VISIBLE_CARD = [
  'id', 'slug', 'firstname', 'lastname', 'display_name', 'display_address', 'type', 'profile_img', 'headline', 'city',
  'latitude', 'longitude', 'skills', 'categories', 'looking_for', 'offering', 'created_at', 'updated_at',
] as const;

const MATCH_PROFILE_WRITE = [
  'user_id', 'name', 'active', 'kind', 'kinds_sought', 'roles_offered', 'roles_sought', 'skills', 'skill_tags', 'skills_sought',
  'industries', 'idea_stage', 'stages_sought', 'commitment', 'available_from', 'city', 'remote_ok', 'radius_km', 'languages',
  'ticket_min_eur', 'ticket_max_eur', 'must_have', 'weights',
] as const;

const both = <T extends readonly string[]>(cols: T) => ({ anon: cols, authenticated: cols });
const signedIn = <T extends readonly string[]>(cols: T) => ({ authenticated: cols });

/** Tables and views of the API schema. */
export const relations: Record<string, RelationExposure> = {
  profiles: {
    kind: 'table',
    rows: 'public',
    columns: [
      'id', 'email', 'firstname', 'lastname', 'authenticated', 'user_role', 'profile_visibility', 'profile_img',
      'stripe_customer_id', 'type', 'street', 'house_number', 'city', 'state', 'zipcode', 'latitude', 'longitude', 'slug',
      'headline', 'bio', 'skills', 'looking_for', 'offering', 'categories', 'logo', 'gallery', 'social_links',
      'preferred_language', 'created_at', 'updated_at', 'profile_accent', 'profile_tagline', 'featured_project_id',
      'show_premium_badge', 'listed', 'show_exact_location',
    ],
    personal: [
      'email', 'authenticated', 'user_role', 'profile_visibility', 'stripe_customer_id', 'street', 'house_number', 'zipcode',
      'preferred_language', 'profile_accent', 'profile_tagline', 'featured_project_id', 'show_premium_badge',
    ],
    select: both(PROFILE_PUBLIC),
    update: signedIn([
      'firstname', 'lastname', 'profile_visibility', 'profile_img', 'type', 'street', 'house_number', 'city', 'state',
      'zipcode', 'latitude', 'longitude', 'slug', 'headline', 'bio', 'skills', 'looking_for', 'offering', 'categories',
      'logo', 'gallery', 'social_links', 'preferred_language', 'profile_accent',
      'profile_tagline', 'featured_project_id', 'show_premium_badge', 'show_exact_location',
    ]),
    delete: ['authenticated'],
  },
  public_profiles: { kind: 'view', rows: 'public', columns: PUBLIC_CARD, select: both(PUBLIC_CARD) },
  visible_profiles: { kind: 'view', rows: 'public', columns: VISIBLE_CARD, select: both(VISIBLE_CARD) },
  account_suspensions: {
    kind: 'table',
    rows: 'own',
    columns: ['user_id', 'reason', 'suspended_by', 'created_at'],
    personal: ['user_id', 'reason'],
    select: signedIn(['user_id', 'reason', 'suspended_by', 'created_at']),
    insert: signedIn(['user_id', 'reason', 'suspended_by']),
    update: signedIn(['reason']),
    delete: ['authenticated'],
  },
  user_blocks: {
    kind: 'table',
    rows: 'own',
    columns: ['blocker_id', 'blocked_id', 'created_at'],
    select: signedIn(['blocker_id', 'blocked_id', 'created_at']),
    insert: signedIn(['blocker_id', 'blocked_id']),
    delete: ['authenticated'],
  },
  audit_log: {
    kind: 'table',
    rows: 'admin',
    columns: ['id', 'actor_id', 'actor_role', 'action', 'target_table', 'target_id', 'details', 'created_at'],
    select: signedIn(['id', 'actor_id', 'actor_role', 'action', 'target_table', 'target_id', 'details', 'created_at']),
  },
  email_types: { kind: 'table', rows: 'admin', columns: ['key', 'description', 'priority'], select: signedIn(['key', 'description', 'priority']) },
  email_templates: {
    kind: 'table',
    rows: 'admin',
    columns: ['key', 'lang', 'subject', 'body', 'updated_at'],
    select: signedIn(['key', 'lang', 'subject', 'body', 'updated_at']),
    update: signedIn(['subject', 'body']),
  },
  email_queue: {
    kind: 'table',
    rows: 'admin',
    columns: [
      'id', 'user_id', 'email', 'email_type', 'lang', 'user_metadata', 'payload', 'status', 'attempts', 'next_attempt_at',
      'locked_at', 'locked_until', 'last_error', 'provider_message_id', 'sent_at', 'created_at', 'updated_at', 'priority',
    ],
    personal: ['email', 'user_metadata', 'payload'],
    select: signedIn([
      'id', 'user_id', 'email', 'email_type', 'lang', 'user_metadata', 'payload', 'status', 'attempts', 'next_attempt_at',
      'locked_at', 'locked_until', 'last_error', 'provider_message_id', 'sent_at', 'created_at', 'updated_at', 'priority',
    ]),
    insert: signedIn(['user_id', 'email', 'email_type', 'lang', 'user_metadata']),
  },
  plans: {
    kind: 'table',
    rows: 'public',
    columns: ['id', 'name', 'rank', 'project_limit', 'features_de', 'features_en', 'contact_sales', 'active'],
    select: both(['id', 'name', 'rank', 'project_limit', 'features_de', 'features_en', 'contact_sales', 'active']),
  },
  // issue 14: the city gazetteer (GeoNames), public reference data
  cities: {
    kind: 'table',
    rows: 'public',
    columns: ['id', 'name', 'state', 'latitude', 'longitude', 'population'],
    select: both(['id', 'name', 'state', 'latitude', 'longitude', 'population']),
  },
  prices: {
    kind: 'table',
    rows: 'public',
    columns: ['id', 'plan_id', 'billing_period', 'months', 'amount_cents', 'currency', 'stripe_price_id', 'active'],
    select: both(['id', 'plan_id', 'billing_period', 'months', 'amount_cents', 'currency', 'stripe_price_id', 'active']),
  },
  // issue 15: price of one extra organisation seat per billing period, public reference data
  seat_prices: {
    kind: 'table',
    rows: 'public',
    columns: ['billing_period', 'amount_cents', 'currency', 'stripe_price_id', 'active'],
    select: both(['billing_period', 'amount_cents', 'currency', 'stripe_price_id', 'active']),
  },
  subscriptions: {
    kind: 'table',
    rows: 'own',
    columns: [
      'id', 'user_id', 'plan_id', 'price_id', 'billing_period', 'status', 'current_period_start', 'current_period_end',
      'cancel_at_period_end', 'canceled_at', 'ended_at', 'stripe_customer_id', 'stripe_subscription_id',
      'stripe_checkout_session_id', 'last_synced_at', 'created_at', 'updated_at',
    ],
    personal: ['plan_id', 'price_id', 'status', 'stripe_customer_id', 'stripe_subscription_id', 'stripe_checkout_session_id'],
    select: signedIn([
      'id', 'user_id', 'plan_id', 'price_id', 'billing_period', 'status', 'current_period_start', 'current_period_end',
      'cancel_at_period_end', 'canceled_at', 'ended_at', 'stripe_customer_id', 'stripe_subscription_id',
      'stripe_checkout_session_id', 'last_synced_at', 'created_at', 'updated_at',
    ]),
  },
  stripe_events: {
    kind: 'table',
    rows: 'admin',
    columns: ['id', 'type', 'stripe_created_at', 'received_at', 'processed_at', 'error'],
    select: signedIn(['id', 'type', 'stripe_created_at', 'received_at', 'processed_at', 'error']),
  },
  cancellation_requests: {
    kind: 'table',
    rows: 'admin',
    columns: [
      'id', 'name', 'email', 'plan_id', 'contract', 'reason', 'requested_date', 'lang', 'user_id', 'status',
      'stripe_subscription_ids', 'effective_at', 'error', 'created_at', 'processed_at', 'confirmed_at', 'confirmed_via',
    ],
    personal: ['name', 'email', 'stripe_subscription_ids'],
    select: signedIn([
      'id', 'name', 'email', 'plan_id', 'contract', 'reason', 'requested_date', 'lang', 'user_id', 'status',
      'stripe_subscription_ids', 'effective_at', 'error', 'created_at', 'processed_at', 'confirmed_at', 'confirmed_via',
    ]),
  },
  contacts: {
    kind: 'table',
    rows: 'participants',
    columns: ['id', 'requester_id', 'addressee_id', 'status', 'message', 'created_at', 'responded_at'],
    select: signedIn(['id', 'requester_id', 'addressee_id', 'status', 'message', 'created_at', 'responded_at']),
    // requests only through send_contact_request (issue 13: 30-day rule, limits)
    update: signedIn(['status']),
    delete: ['authenticated'],
  },
  projects: {
    kind: 'table',
    rows: 'public',
    columns: [
      'id', 'owner_id', 'title', 'slug', 'summary', 'description', 'is_private', 'category', 'private_category', 'city',
      'latitude', 'longitude', 'roles_sought', 'stage', 'images', 'status', 'published_at', 'owner_listed', 'owner_premium',
      'created_at', 'updated_at', 'organization_id',
    ],
    select: both(PROJECT_PUBLIC),
    insert: signedIn(['owner_id', ...PROJECT_WRITE]),
    update: signedIn(PROJECT_WRITE),
    delete: ['authenticated'],
  },
  favourite_projects: {
    kind: 'table',
    rows: 'own',
    columns: ['user_id', 'project_id', 'created_at'],
    select: signedIn(['user_id', 'project_id', 'created_at']),
    insert: signedIn(['user_id', 'project_id']),
    delete: ['authenticated'],
  },
  portfolios: {
    kind: 'table',
    rows: 'public',
    columns: [
      'id', 'owner_id', 'title', 'slug', 'description_de', 'description_en', 'skills', 'links', 'images', 'category', 'city',
      'file_access', 'status', 'published_at', 'owner_listed', 'owner_premium', 'created_at', 'updated_at',
    ],
    select: both(PORTFOLIO_PUBLIC),
    insert: signedIn(['owner_id', ...PORTFOLIO_WRITE]),
    update: signedIn(PORTFOLIO_WRITE),
    delete: ['authenticated'],
  },
  portfolio_files: {
    kind: 'table',
    rows: 'public',
    columns: ['id', 'portfolio_id', 'owner_id', 'object_path', 'file_name', 'mime_type', 'size_bytes', 'created_at'],
    select: both(['id', 'portfolio_id', 'owner_id', 'object_path', 'file_name', 'mime_type', 'size_bytes', 'created_at']),
    insert: signedIn(['portfolio_id', 'owner_id', 'object_path', 'file_name', 'mime_type', 'size_bytes']),
    update: signedIn(['file_name']),
    delete: ['authenticated'],
  },
  event_status_transitions: {
    kind: 'table',
    rows: 'public',
    columns: ['from_status', 'to_status'],
    select: both(['from_status', 'to_status']),
  },
  events: {
    kind: 'table',
    rows: 'public',
    columns: [
      'id', 'organizer_id', 'title', 'slug', 'summary', 'description', 'category', 'status', 'is_paid', 'price_cents',
      'currency', 'starts_at', 'ends_at', 'timezone', 'is_online', 'venue_name', 'street', 'zipcode', 'city', 'latitude',
      'longitude', 'online_url', 'capacity', 'going_count', 'waitlist_count', 'image', 'owner_listed', 'owner_premium',
      'created_at', 'updated_at', 'organization_id',
    ],
    select: both(EVENT_PUBLIC),
    insert: signedIn(['organizer_id', 'slug', ...EVENT_UPDATE]),
    update: signedIn(EVENT_UPDATE),
    delete: ['authenticated'],
  },
  event_attendees: {
    kind: 'table',
    rows: 'participants',
    columns: ['event_id', 'user_id', 'status', 'created_at', 'updated_at', 'hold_expires_at'],
    select: signedIn(['event_id', 'user_id', 'status', 'created_at', 'updated_at', 'hold_expires_at']),
    // issue 16: writes only through rsvp_event, cancel_rsvp and reserve_ticket (event row lock first)
  },
  // issue 16: ticket purchases; Stripe ids and the refund queue stay with service_role
  event_tickets: {
    kind: 'table',
    rows: 'own',
    columns: [
      'id', 'event_id', 'user_id', 'ticket_number', 'status', 'amount_cents', 'currency', 'lang', 'hold_expires_at',
      'checkout_session_id', 'payment_intent_id', 'refund_id', 'refund_reason', 'refund_attempts', 'refund_next_attempt_at',
      'refund_error', 'paid_at', 'refund_requested_at', 'refunded_at', 'created_at', 'updated_at',
    ],
    personal: ['checkout_session_id', 'payment_intent_id', 'refund_id'],
    select: signedIn([
      'id', 'event_id', 'user_id', 'ticket_number', 'status', 'amount_cents', 'currency', 'lang', 'hold_expires_at',
      'refund_reason', 'paid_at', 'refund_requested_at', 'refunded_at', 'created_at', 'updated_at',
    ]),
  },
  jobs: {
    kind: 'table',
    rows: 'public',
    columns: JOB_COLUMNS,
    select: both(JOB_COLUMNS),
    insert: signedIn([
      'id', 'title', 'company', 'company_logo', 'city', 'latitude', 'longitude', 'remote', 'employment_type', 'category',
      'description', 'apply_url', 'salary_min_cents', 'salary_max_cents', 'language', 'posted_by', 'expires_at',
      'organization_id',
    ]),
    update: signedIn(JOB_UPDATE),
    delete: ['authenticated'],
  },
  favourite_jobs: {
    kind: 'table',
    rows: 'own',
    columns: ['user_id', 'job_id', 'created_at'],
    select: signedIn(['user_id', 'job_id', 'created_at']),
    insert: signedIn(['user_id', 'job_id']),
    delete: ['authenticated'],
  },
  conversations: {
    kind: 'table',
    rows: 'participants',
    columns: ['id', 'kind', 'title', 'created_by', 'last_message_at', 'created_at', 'updated_at'],
    select: signedIn(['id', 'kind', 'title', 'created_by', 'last_message_at', 'created_at', 'updated_at']),
    // conversations start only through start_direct_conversation (issue 13: contacts only)
    update: signedIn(['title']),
    delete: ['authenticated'],
  },
  conversation_members: {
    kind: 'table',
    rows: 'participants',
    columns: ['conversation_id', 'user_id', 'role', 'joined_at', 'last_read_at'],
    select: signedIn(['conversation_id', 'user_id', 'role', 'joined_at', 'last_read_at']),
    // members join through start_direct_conversation; last_read_at moves through mark_conversation_read (issue 13)
    delete: ['authenticated'],
  },
  messages: {
    kind: 'table',
    rows: 'participants',
    columns: MESSAGE_COLUMNS,
    select: signedIn(MESSAGE_COLUMNS),
    // attachment type and size come from the stored object (issue 13)
    insert: signedIn(['conversation_id', 'sender_id', 'body', 'attachment_path', 'attachment_name', 'client_id']),
    // edit (body) or soft delete (deleted_at) within 15 minutes; no hard delete
    update: signedIn(['body', 'deleted_at']),
  },
  user_settings: {
    kind: 'table',
    rows: 'own',
    columns: ['user_id', 'show_online_status', 'email_contact_requests', 'email_messages', 'updated_at', 'email_event_updates', 'email_match_digest'],
    select: signedIn(['user_id', 'show_online_status', 'email_contact_requests', 'email_messages', 'updated_at', 'email_event_updates', 'email_match_digest']),
    insert: signedIn(['user_id', 'show_online_status', 'email_contact_requests', 'email_messages', 'email_event_updates', 'email_match_digest']),
    update: signedIn(['show_online_status', 'email_contact_requests', 'email_messages', 'email_event_updates', 'email_match_digest']),
  },
  feedback: {
    kind: 'table',
    rows: 'own',
    columns: ['id', 'user_id', 'category', 'rating', 'message', 'page_url', 'status', 'created_at'],
    select: signedIn(['id', 'user_id', 'category', 'rating', 'message', 'page_url', 'status', 'created_at']),
    insert: signedIn(['user_id', 'category', 'rating', 'message', 'page_url']),
    update: signedIn(['status']),
    delete: ['authenticated'],
  },
  newsletter_subscribers: {
    kind: 'table',
    rows: 'admin',
    columns: ['id', 'email', 'lang', 'status', 'token', 'user_id', 'source', 'created_at', 'confirmed_at', 'unsubscribed_at'],
    personal: ['email', 'token'],
    select: signedIn(['id', 'email', 'lang', 'status', 'user_id', 'source', 'created_at', 'confirmed_at', 'unsubscribed_at']),
    update: signedIn(['status']),
    delete: ['authenticated'],
  },
  // issue 19: matching. The skill vocabulary is public reference data; matching profiles, declines
  // and impressions are the owner's; open roles are visible with their project. Engine columns
  // (masks, effective weights) are not readable through the API.
  skills: {
    kind: 'table',
    rows: 'public',
    columns: ['id', 'key', 'role', 'label_en', 'label_de'],
    select: both(['id', 'key', 'role', 'label_en', 'label_de']),
  },
  match_profiles: {
    kind: 'table',
    rows: 'own',
    columns: [
      'id', 'user_id', 'is_primary', 'name', 'active', 'kind', 'kinds_sought', 'roles_offered', 'roles_sought', 'skills', 'skill_tags',
      'skills_sought', 'industries', 'idea_stage', 'stages_sought', 'commitment', 'available_from', 'city', 'remote_ok', 'radius_km',
      'languages', 'ticket_min_eur', 'ticket_max_eur', 'must_have', 'weights', 'roles_offered_mask', 'roles_sought_mask', 'kind_mask',
      'kinds_sought_mask', 'industries_mask', 'stage_mask', 'stages_sought_mask', 'skills_mask', 'skills_sought_mask', 'must_mask', 'role_pairs',
      'weights_arr', 'owner_listed', 'owner_advanced', 'owner_lat', 'owner_lon', 'owner_city', 'owner_responsiveness', 'created_at', 'updated_at',
    ],
    select: signedIn([...MATCH_PROFILE_WRITE, 'id', 'is_primary', 'created_at', 'updated_at']),
    insert: signedIn([...MATCH_PROFILE_WRITE, 'is_primary']),
    update: signedIn(MATCH_PROFILE_WRITE.filter((c) => c !== 'user_id')),
    delete: ['authenticated'],
  },
  project_open_roles: {
    kind: 'table',
    rows: 'public',
    columns: ['id', 'project_id', 'role', 'title', 'skills', 'commitment', 'filled', 'skills_mask', 'created_at', 'updated_at'],
    select: both(['id', 'project_id', 'role', 'title', 'skills', 'commitment', 'filled', 'created_at', 'updated_at']),
    insert: signedIn(['project_id', 'role', 'title', 'skills', 'commitment', 'filled']),
    update: signedIn(['role', 'title', 'skills', 'commitment', 'filled']),
    delete: ['authenticated'],
  },
  match_declines: {
    kind: 'table',
    rows: 'own',
    columns: ['user_id', 'declined_id', 'created_at'],
    select: signedIn(['user_id', 'declined_id', 'created_at']),
    insert: signedIn(['user_id', 'declined_id']),
    delete: ['authenticated'],
  },
  match_impressions: {
    kind: 'table',
    rows: 'own',
    columns: ['user_id', 'shown_id', 'first_shown_at'],
    // written only by match_people (the Basic weekly quota)
    select: signedIn(['user_id', 'shown_id', 'first_shown_at']),
  },
  // issue 15: organisations (see supabase/schemas/05_organizations.sql)
  organizations: {
    kind: 'table',
    rows: 'public',
    columns: [
      'id', 'slug', 'name', 'logo_path', 'description_en', 'description_de', 'website', 'industry', 'size', 'street', 'postal_code',
      'city', 'country', 'display_address', 'seats', 'subscription_id', 'created_by', 'created_at', 'updated_at',
    ],
    select: both(ORGANIZATION_PUBLIC),
    // created through create_organization; owners and admins edit the public fields (RLS)
    update: signedIn(ORGANIZATION_UPDATE),
  },
  organization_members: {
    kind: 'table',
    rows: 'participants',
    columns: ['organization_id', 'user_id', 'role', 'listed', 'joined_at'],
    select: signedIn(['organization_id', 'user_id', 'role', 'listed', 'joined_at']),
    // joins, removals and roles only through the organisation RPCs; a member switches their own listing
    update: signedIn(['listed']),
  },
  organization_invitations: {
    kind: 'table',
    rows: 'org_admins',
    columns: [
      'id', 'organization_id', 'email', 'role', 'token_hash', 'invited_by', 'locale', 'expires_at', 'accepted_at', 'accepted_by',
      'declined_at', 'revoked_at', 'created_at',
    ],
    personal: ['email'],
    select: signedIn(ORGANIZATION_INVITATION_READ),
  },
  // issue 15 API access (supabase/schemas/20_api_keys.sql): keys are created and revoked through RPCs;
  // the hash and the rate-limit state stay with the service role
  api_keys: {
    kind: 'table',
    rows: 'org_admins',
    columns: [
      'id', 'organization_id', 'name', 'scopes', 'prefix', 'key_hash', 'created_by', 'created_at', 'last_used_at', 'revoked_at',
      'rate_limit_per_minute', 'rate_window_start', 'rate_window_count',
    ],
    select: signedIn([
      'id', 'organization_id', 'name', 'scopes', 'prefix', 'created_by', 'created_at', 'last_used_at', 'revoked_at', 'rate_limit_per_minute',
    ]),
  },
  // issue 33 §9: the admin inbox reads these (select and status only for admins, RLS)
  contact_messages: {
    kind: 'table',
    rows: 'admin',
    columns: ['id', 'user_id', 'name', 'email', 'topic', 'plan_id', 'subject', 'message', 'lang', 'status', 'created_at'],
    personal: ['name', 'email'],
    select: signedIn(['id', 'user_id', 'name', 'email', 'topic', 'plan_id', 'subject', 'message', 'lang', 'status', 'created_at']),
    insert: both(['user_id', 'name', 'email', 'topic', 'plan_id', 'subject', 'message', 'lang']),
    update: signedIn(['status']),
    delete: ['authenticated'],
  },
};

const MY_PROFILE = [
  'id', 'email', 'firstname', 'lastname', 'authenticated', 'user_role', 'profile_visibility', 'profile_img',
  'stripe_customer_id', 'type', 'street', 'house_number', 'city', 'state', 'zipcode', 'latitude', 'longitude', 'slug',
  'headline', 'bio', 'skills', 'looking_for', 'offering', 'categories', 'logo', 'gallery', 'social_links',
  'preferred_language', 'profile_accent', 'profile_tagline', 'featured_project_id', 'show_premium_badge', 'listed',
  'created_at', 'updated_at', 'display_name', 'display_address', 'premium_profile', 'suspended',
] as const;

/** Functions of the API schema, keyed by `name(identity arguments)` as Postgres prints them. */
export const functions: Record<string, FunctionExposure> = {
  'admin_delete_user(p_user_id uuid)': { execute: ['authenticated'], serviceRole: false, returns: 'void', rows: 'none' },
  'admin_list_users(p_search text, p_limit integer, p_offset integer)': {
    execute: ['authenticated'],
    returns: ['id', 'email', 'firstname', 'lastname', 'user_role', 'authenticated', 'created_at', 'suspended', 'total'],
    rows: 'admin',
    personal: ['email', 'user_role', 'authenticated', 'suspended'],
  },
  'claim_email_batch(batch_size integer, lock_seconds integer)': {
    execute: [],
    returns: ['id', 'user_id', 'email', 'email_type', 'lang', 'user_metadata', 'payload', 'attempts', 'subject', 'body'],
    rows: 'admin',
  },
  'complete_email(p_id bigint, p_provider_message_id text)': { execute: [], returns: 'boolean', rows: 'none' },
  'complete_emails(p_ids bigint[], p_provider_message_ids text[])': { execute: [], returns: 'integer', rows: 'none' },
  'confirm_user_email(p_user_id uuid)': { execute: [], returns: 'boolean', rows: 'none' },
  'consume_auth_token(p_nonce text, p_user_id uuid, p_purpose text, p_expires_at timestamp with time zone)': {
    execute: [],
    returns: 'boolean',
    rows: 'none',
  },
  'health_report()': { execute: [], returns: 'jsonb', rows: 'none' },
  'before_user_created_hook(event jsonb)': { execute: [], returns: 'jsonb', rows: 'none' },
  'custom_access_token_hook(event jsonb)': { execute: [], returns: 'jsonb', rows: 'none' },
  // issue 31 §2: Auth's send-email hook (supabase_auth_admin only)
  'send_email_hook(event jsonb)': { execute: [], returns: 'jsonb', rows: 'none' },
  'queue_account_exists_notice(p_email text, p_link text)': { execute: [], returns: 'void', rows: 'none' },
  'enforce_public_rate_limit(p_bucket text, p_key text, p_limit integer, p_window_seconds integer)': { execute: [], returns: 'void', rows: 'none' },
  // issue 29: login-check clears an account's attempt count; the upload function grants one upload
  'clear_public_rate_limit(p_bucket text, p_key text)': { execute: [], returns: 'void', rows: 'none' },
  'grant_upload(p_user_id uuid, p_bucket_id text, p_name text)': { execute: [], returns: 'void', rows: 'none' },
  'delete_my_account(p_email text)': { execute: ['authenticated'], serviceRole: false, returns: 'void', rows: 'none' },
  'event_join_link(p_event_id bigint)': { execute: ['anon', 'authenticated'], returns: 'text', rows: 'participants' },
  'event_waitlist_position(p_event_id bigint)': { execute: ['authenticated'], returns: 'integer', rows: 'own' },
  // issue 18: the landing page's live content (listed people by name, published content, prices)
  'landing_snapshot()': { execute: ['anon', 'authenticated'], returns: 'jsonb', rows: 'public' },
  // issue 16: attendance RPCs (event row lock first) and the ticket ledger (service_role)
  'rsvp_event(p_event_id bigint)': { execute: ['authenticated'], returns: 'attendee_status', rows: 'own' },
  'cancel_rsvp(p_event_id bigint)': { execute: ['authenticated'], returns: 'jsonb', rows: 'own' },
  'reserve_ticket(p_event_id bigint, p_lang text)': { execute: ['authenticated'], returns: 'jsonb', rows: 'own', personal: ['checkout_session_id'] },
  'attach_ticket_checkout(p_ticket_id bigint, p_session_id text)': { execute: [], returns: 'boolean', rows: 'none' },
  'sync_ticket_checkout(p_session_id text, p_session_status text, p_payment_status text, p_payment_intent text, p_amount_refunded integer, p_refund_id text)': {
    execute: [],
    returns: 'jsonb',
    rows: 'admin',
  },
  'ticket_by_payment_intent(p_payment_intent text)': { execute: [], returns: 'text', rows: 'admin' },
  'claim_ticket_refunds(p_limit integer)': {
    execute: [],
    returns: ['id', 'payment_intent_id', 'amount_cents', 'refund_reason', 'refund_attempts'],
    rows: 'admin',
  },
  'fail_ticket_refund(p_ticket_id bigint, p_error text)': { execute: [], returns: 'void', rows: 'none' },
  'export_my_data()': { execute: ['authenticated'], serviceRole: false, returns: 'jsonb', rows: 'own' },
  'fail_email(p_id bigint, p_error text, p_max_attempts integer)': { execute: [], returns: 'email_status', rows: 'none' },
  'finish_stripe_event(p_id text, p_error text)': { execute: [], returns: 'void', rows: 'none' },
  'has_active_subscription()': { execute: ['anon', 'authenticated'], returns: 'boolean', rows: 'own' },
  // issue 32 §2: the caller's effective plan (organisation seat > own subscription), what the SPA shows
  'my_plan()': { execute: ['authenticated'], returns: 'jsonb', rows: 'own' },
  // issue 33 §5: what counts towards the project limit, as the limit trigger counts it
  'my_project_allowance()': { execute: ['authenticated'], returns: ['used', 'project_limit', 'drafts', 'draft_limit'], rows: 'own' },
  'my_blocked_users(p_slug text)': {
    execute: ['authenticated'],
    returns: ['user_id', 'display_name', 'slug', 'profile_img', 'blocked_at'],
    rows: 'own',
  },
  'my_profile()': {
    execute: ['authenticated'],
    returns: MY_PROFILE,
    rows: 'own',
    personal: ['email', 'user_role', 'authenticated', 'stripe_customer_id', 'street', 'house_number', 'zipcode', 'suspended'],
  },
  'newsletter_confirm(p_token uuid)': { execute: ['anon', 'authenticated'], returns: 'boolean', rows: 'none' },
  'newsletter_subscribe(p_email text, p_lang text, p_source text)': { execute: ['anon', 'authenticated'], returns: 'void', rows: 'none' },
  'newsletter_unsubscribe(p_token uuid)': { execute: ['anon', 'authenticated'], returns: 'boolean', rows: 'none' },
  'record_stripe_event(p_id text, p_type text, p_created_at timestamp with time zone)': { execute: [], returns: 'boolean', rows: 'none' },
  'search(q text, types text[], category text, city text, date_from date, date_to date, page integer, page_size integer)': {
    execute: ['anon', 'authenticated'],
    returns: 'jsonb',
    rows: 'public',
  },
  // issue 14: the map (people at city level only; see supabase/schemas/16_cities_map.sql)
  'map_items(west double precision, south double precision, east double precision, north double precision, zoom double precision, layers text[], category text, date_from date, date_to date, include_remote boolean, max_rows integer)': {
    execute: ['anon', 'authenticated'],
    returns: 'json',
    rows: 'public',
  },
  'start_direct_conversation(p_other_user_id uuid)': { execute: ['authenticated'], returns: 'uuid', rows: 'none' },
  // issue 13: contacts, presence, chat
  'send_contact_request(p_addressee_id uuid, p_message text)': { execute: ['authenticated'], returns: 'contact_status', rows: 'none' },
  'my_contacts(p_tab text, p_search text, p_limit integer, p_offset integer)': {
    execute: ['authenticated'],
    returns: ['contact_id', 'user_id', 'display_name', 'slug', 'profile_img', 'headline', 'city', 'status', 'message', 'since', 'last_seen_at', 'total'],
    rows: 'participants',
  },
  'contact_request_count()': { execute: ['authenticated'], returns: 'integer', rows: 'own' },
  // issue 19: fair requests (weekly allowance; response stats are aggregates, no requester identity)
  'my_contact_request_allowance()': {
    execute: ['authenticated'],
    returns: ['plan', 'weekly_limit', 'used', 'remaining', 'renews_at', 'renews_on'],
    rows: 'own',
  },
  'profile_response_stats(p_profile_id uuid)': {
    execute: ['anon', 'authenticated'],
    returns: ['requests', 'response_rate', 'median_response_hours'],
    rows: 'public',
  },
  'touch_presence()': { execute: ['authenticated'], returns: 'void', rows: 'none' },
  // issue 31 §10: the current presence topic of self or a watchable contact (null for others)
  'presence_topic(p_user_id uuid)': { execute: ['authenticated'], returns: 'text', rows: 'participants' },
  'my_inbox(p_limit integer, p_offset integer)': {
    execute: ['authenticated'],
    returns: [
      'conversation_id', 'other_user_id', 'display_name', 'slug', 'profile_img', 'last_seen_at', 'last_message_id', 'last_sender_id',
      'last_body', 'last_deleted', 'last_message_at', 'unread', 'other_last_read_at', 'total',
    ],
    rows: 'participants',
  },
  'unread_message_total()': { execute: ['authenticated'], returns: 'integer', rows: 'own' },
  'conversation_info(p_conversation_id uuid)': {
    execute: ['authenticated'],
    returns: ['conversation_id', 'other_user_id', 'display_name', 'slug', 'profile_img', 'last_seen_at', 'other_last_read_at', 'my_last_read_at', 'can_write'],
    rows: 'participants',
  },
  'mark_conversation_read(p_conversation_id uuid)': { execute: ['authenticated'], returns: 'timestamp with time zone', rows: 'none' },
  'submit_cancellation_request(p_name text, p_email text, p_plan_id text, p_contract text, p_reason text, p_requested_date date, p_lang text, p_account_id uuid, p_client_ip text)': {
    execute: [],
    returns: ['request_id', 'user_id', 'needs_confirmation', 'lang', 'created_at'],
    rows: 'admin',
  },
  'record_duplicate_subscription(p_stripe_subscription_id text, p_user_id uuid, p_kept_subscription_id text, p_refund_id text, p_refunded_cents integer, p_currency text)': {
    execute: [],
    returns: 'boolean',
    rows: 'none',
  },
  'is_duplicate_subscription(p_stripe_subscription_id text)': { execute: [], returns: 'boolean', rows: 'none' },
  // issue 32 §1: the queue of Stripe cancellations owed to deleted accounts (the delete-account function)
  'claim_account_deletion_cancellations(p_limit integer, p_user_id uuid)': {
    execute: [],
    returns: ['id', 'user_id', 'stripe_customer_id', 'known_subscription_ids', 'attempts'],
    rows: 'admin',
  },
  'complete_account_deletion_cancellation(p_id bigint, p_canceled_subscription_ids text[], p_plan_ids text[])': { execute: [], returns: 'boolean', rows: 'none' },
  'fail_account_deletion_cancellation(p_id bigint, p_error text)': { execute: [], returns: 'void', rows: 'none' },
  'queue_cancellation_link(p_request_id uuid, p_link text)': { execute: [], returns: 'bigint', rows: 'none' },
  'confirm_cancellation_request(p_request_id uuid, p_user_id uuid)': {
    execute: [],
    returns: ['request_id', 'plan_id', 'requested_date', 'lang'],
    rows: 'admin',
  },
  'sync_subscription(p_user_id uuid, p_stripe_customer_id text, p_stripe_subscription_id text, p_status subscription_status, p_stripe_price_id text, p_plan_id text, p_current_period_start timestamp with time zone, p_current_period_end timestamp with time zone, p_cancel_at_period_end boolean, p_canceled_at timestamp with time zone, p_ended_at timestamp with time zone, p_checkout_session_id text, p_synced_at timestamp with time zone)': {
    execute: [],
    returns: 'subscriptions',
    rows: 'admin',
  },
  // issue 19: matching (see supabase/schemas/18_matching.sql for inputs, outputs, reason codes and errors)
  'match_people(p_profile_id uuid, p_filters jsonb, p_limit integer, p_cursor text)': { execute: ['authenticated'], returns: 'jsonb', rows: 'public' },
  'export_matches_csv(p_profile_id uuid, p_filters jsonb, p_limit integer)': { execute: ['authenticated'], returns: 'text', rows: 'public' },
  'match_projects(p_filters jsonb, p_limit integer, p_cursor text)': { execute: ['authenticated'], returns: 'jsonb', rows: 'public' },
  'project_role_candidates(p_project_id bigint, p_role_id bigint, p_limit integer)': { execute: ['authenticated'], returns: 'jsonb', rows: 'public' },
  // issue 15: organisations (errors and rules in supabase/schemas/05_organizations.sql)
  'create_organization(p_name text, p_slug text, p_description_en text, p_description_de text, p_website text, p_industry text, p_size text, p_street text, p_postal_code text, p_city text, p_country text, p_logo_path text)': {
    execute: ['authenticated'],
    returns: 'uuid',
    rows: 'none',
  },
  'invite_to_organization(p_organization_id uuid, p_email text, p_role organization_role, p_locale text)': {
    execute: ['authenticated'],
    returns: 'uuid',
    rows: 'none',
  },
  'organization_invitation(p_token text)': { execute: ['anon', 'authenticated'], returns: 'jsonb', rows: 'public' },
  'accept_organization_invitation(p_token text)': { execute: ['authenticated'], returns: 'uuid', rows: 'none' },
  'decline_organization_invitation(p_token text)': { execute: ['authenticated'], returns: 'void', rows: 'none' },
  'revoke_organization_invitation(p_invitation_id uuid)': { execute: ['authenticated'], returns: 'void', rows: 'none' },
  'remove_organization_member(p_organization_id uuid, p_user_id uuid)': { execute: ['authenticated'], returns: 'void', rows: 'none' },
  'leave_organization(p_organization_id uuid)': { execute: ['authenticated'], returns: 'void', rows: 'none' },
  'set_organization_member_role(p_organization_id uuid, p_user_id uuid, p_role organization_role)': {
    execute: ['authenticated'],
    returns: 'void',
    rows: 'none',
  },
  'delete_organization(p_organization_id uuid)': { execute: ['authenticated'], returns: 'void', rows: 'none' },
  'organization_members_public(p_slug text)': {
    execute: ['anon', 'authenticated'],
    returns: ['user_id', 'slug', 'display_name', 'profile_img', 'headline', 'city', 'role', 'joined_at'],
    rows: 'public',
  },
  'my_organizations()': {
    execute: ['authenticated'],
    returns: ['id', 'slug', 'name', 'logo_path', 'role', 'listed', 'seats', 'members', 'open_invitations', 'enterprise_active', 'joined_at'],
    rows: 'own',
  },
  'organization_billing(p_organization_id uuid)': { execute: ['authenticated'], returns: 'jsonb', rows: 'org_admins' },
  'attach_organization_subscription(p_organization_id uuid)': { execute: ['authenticated'], returns: 'void', rows: 'none' },
  // issue 15: the paying owner's seat change, checked before organization-seats changes Stripe
  'prepare_seat_change(p_organization_id uuid, p_extra_seats integer)': { execute: ['authenticated'], returns: 'jsonb', rows: 'org_admins' },
  // e-mail addresses only when the caller is an owner or admin of the organisation (null for members)
  'organization_member_list(p_organization_id uuid)': {
    execute: ['authenticated'],
    returns: ['user_id', 'slug', 'display_name', 'profile_img', 'role', 'listed', 'joined_at', 'email'],
    rows: 'org_admins',
    personal: ['email'],
  },
  'sync_subscription_seats(p_stripe_subscription_id text, p_extra_seats integer, p_synced_at timestamp with time zone)': {
    execute: [],
    returns: 'integer',
    rows: 'none',
  },
  'visible_profiles_count()': { execute: ['anon', 'authenticated'], returns: 'bigint', rows: 'public' },
  // issue 15: analytics (supabase/schemas/19_analytics.sql: aggregated daily counts only, no visitor identity)
  'analytics_track(p_item_type text, p_item_id text, p_metric text, p_statistics_consent boolean)': { execute: ['anon', 'authenticated'], returns: 'text', rows: 'none' },
  'analytics_report(p_item_type text, p_item_id text, p_organization_id uuid)': { execute: ['authenticated'], returns: 'json', rows: 'own' },
  'analytics_csv(p_item_type text, p_item_id text, p_organization_id uuid)': { execute: ['authenticated'], returns: 'text', rows: 'own' },
  // issue 15 API access: keys in clear only in create_api_key's answer; the Edge Function `api` checks keys
  'create_api_key(p_organization_id uuid, p_name text, p_scopes text[])': { execute: ['authenticated'], returns: 'jsonb', rows: 'org_admins' },
  'revoke_api_key(p_id uuid)': { execute: ['authenticated'], returns: 'void', rows: 'none' },
  'authenticate_api_key(p_key text)': { execute: [], returns: 'jsonb', rows: 'none' },
};
