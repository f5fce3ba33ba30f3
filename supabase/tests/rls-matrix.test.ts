/**
 * Row-level security matrix (issue 4): every table and view in the exposed schema `public`
 * × every role (anon, owner, another user, a blocked user, a suspended user, admin,
 * service_role) × select/insert/update/delete has an asserted expectation.
 *
 * Semantics of a cell, run as that role in a rolled-back savepoint:
 * - select: the owner's fixture row is visible;
 * - insert: the role creates a row of its own (service_role on behalf of the owner);
 * - update / delete: the role changes / removes the owner's fixture row (1 row affected).
 * "suspended" is the owner after an admin suspended them; "blocked" is a user who blocked the owner.
 * A table or view in `public` without an entry here fails the completeness test.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { anon, serviceRole, TestDb, type Actor } from './support.ts';

const ROLES = ['anon', 'owner', 'other', 'blocked', 'suspended', 'admin', 'service_role'] as const;
type Role = (typeof ROLES)[number];
const OPS = ['select', 'insert', 'update', 'delete'] as const;
type Op = (typeof OPS)[number];

/** Fixture ids, filled in beforeAll. */
const f: Record<string, string> = {};

interface Spec {
  /** SQL per op; `$1` = acting user's id (owner for service_role, null for anon), `$2` = their e-mail. */
  sql: Record<Op, () => string>;
  /** Extra SQL run as postgres before the op, inside the cell's savepoint. */
  prep?: Partial<Record<Op, () => string>>;
  /** Expected outcome per op, one letter per role in ROLES order: A = allowed, D = denied. */
  expect: Record<Op, string>;
}

const suspendOwner = () => `insert into public.account_suspensions (user_id, reason) values ('${f.owner}', 'matrix') on conflict do nothing;`;

const MATRIX: Record<string, Spec> = {
  profiles: {
    sql: {
      select: () => `select 1 from public.profiles where id = '${f.owner}'`,
      insert: () => `insert into public.profiles (id, email, slug) values ('${f.spareUser}', 'spare@tests.teamwerk.test', 'matrix-spare')`,
      update: () => `update public.profiles set headline = 'Neue Überschrift' where id = '${f.owner}'`,
      delete: () => `delete from public.profiles where id = '${f.owner}'`,
    },
    prep: { insert: () => `delete from public.profiles where id = '${f.spareUser}';` },
    expect: { select: 'AAADAAA', insert: 'DDDDDDA', update: 'DADDDAA', delete: 'DDDDDAA' },
  },
  visible_profiles: {
    sql: {
      select: () => `select 1 from public.visible_profiles where id = '${f.owner}'`,
      insert: () => `insert into public.visible_profiles (id, slug) values ('${f.spareUser}', 'matrix-view')`,
      update: () => `update public.visible_profiles set headline = 'x' where id = '${f.owner}'`,
      delete: () => `delete from public.visible_profiles where id = '${f.owner}'`,
    },
    expect: { select: 'AAADAAA', insert: 'DDDDDDD', update: 'DDDDDDD', delete: 'DDDDDDD' },
  },
  public_profiles: {
    sql: {
      select: () => `select 1 from public.public_profiles where id = '${f.owner}'`,
      insert: () => `insert into public.public_profiles (id, slug) values ('${f.spareUser}', 'matrix-view')`,
      update: () => `update public.public_profiles set headline = 'x' where id = '${f.owner}'`,
      delete: () => `delete from public.public_profiles where id = '${f.owner}'`,
    },
    expect: { select: 'AAADAAA', insert: 'DDDDDDD', update: 'DDDDDDD', delete: 'DDDDDDD' },
  },
  account_suspensions: {
    sql: {
      select: () => `select 1 from public.account_suspensions where user_id = '${f.owner}'`,
      insert: () => `insert into public.account_suspensions (user_id, reason, suspended_by) values ('${f.fourth}', 'Spam', $1)`,
      update: () => `update public.account_suspensions set reason = 'Neu' where user_id = '${f.owner}'`,
      delete: () => `delete from public.account_suspensions where user_id = '${f.owner}'`,
    },
    prep: { select: suspendOwner, update: suspendOwner, delete: suspendOwner },
    expect: { select: 'DADDAAA', insert: 'DDDDDAA', update: 'DDDDDAA', delete: 'DDDDDAA' },
  },
  user_blocks: {
    sql: {
      select: () => `select 1 from public.user_blocks where blocker_id = '${f.owner}' and blocked_id = '${f.third}'`,
      insert: () => `insert into public.user_blocks (blocker_id, blocked_id) values ($1, '${f.fourth}')`,
      update: () => `update public.user_blocks set created_at = now() where blocker_id = '${f.owner}' and blocked_id = '${f.third}'`,
      delete: () => `delete from public.user_blocks where blocker_id = '${f.owner}' and blocked_id = '${f.third}'`,
    },
    expect: { select: 'DADDAAA', insert: 'DAAADAA', update: 'DDDDDDA', delete: 'DADDADA' },
  },
  audit_log: {
    sql: {
      select: () => `select 1 from public.audit_log where id = ${f.audit}`,
      insert: () => `insert into public.audit_log (action) values ('matrix.test')`,
      update: () => `update public.audit_log set action = 'matrix.changed' where id = ${f.audit}`,
      delete: () => `delete from public.audit_log where id = ${f.audit}`,
    },
    expect: { select: 'DDDDDAA', insert: 'DDDDDDA', update: 'DDDDDDA', delete: 'DDDDDDA' },
  },
  email_types: {
    sql: {
      select: () => `select 1 from public.email_types where key = 'matrix_fixture'`,
      insert: () => `insert into public.email_types (key, description) values ('matrix_new', 'x')`,
      update: () => `update public.email_types set description = 'y' where key = 'matrix_fixture'`,
      delete: () => `delete from public.email_types where key = 'matrix_fixture'`,
    },
    expect: { select: 'DDDDDAA', insert: 'DDDDDDA', update: 'DDDDDDA', delete: 'DDDDDDA' },
  },
  email_templates: {
    sql: {
      select: () => `select 1 from public.email_templates where key = 'welcome_email' and lang = 'de'`,
      insert: () => `insert into public.email_templates (key, lang, subject, body) values ('matrix_fixture', 'de', 'Betreff', 'Text')`,
      update: () => `update public.email_templates set subject = subject || '!' where key = 'welcome_email' and lang = 'de'`,
      delete: () => `delete from public.email_templates where key = 'welcome_email' and lang = 'en'`,
    },
    expect: { select: 'DDDDDAA', insert: 'DDDDDDA', update: 'DDDDDAA', delete: 'DDDDDDA' },
  },
  email_queue: {
    sql: {
      select: () => `select 1 from public.email_queue where id = ${f.queue}`,
      insert: () => `insert into public.email_queue (user_id, email, email_type) values ($1, $2, 'welcome_email')`,
      update: () => `update public.email_queue set attempts = attempts + 1 where id = ${f.queue}`,
      delete: () => `delete from public.email_queue where id = ${f.queue}`,
    },
    expect: { select: 'DDDDDAA', insert: 'DAAADAA', update: 'DDDDDDA', delete: 'DDDDDDA' },
  },
  plans: {
    sql: {
      select: () => `select 1 from public.plans where id = 'basic'`,
      insert: () => `insert into public.plans (id, name, rank) values ('basic', 'Basic', 1) on conflict (id) do update set name = excluded.name`,
      update: () => `update public.plans set name = 'Basic' where id = 'basic'`,
      delete: () => `delete from public.plans where id = 'enterprise'`,
    },
    prep: { delete: () => `delete from public.subscriptions where plan_id = 'enterprise'; delete from public.contact_messages where plan_id = 'enterprise'; delete from public.prices where plan_id = 'enterprise';` },
    expect: { select: 'AAAAAAA', insert: 'DDDDDDA', update: 'DDDDDDA', delete: 'DDDDDDA' },
  },
  cities: {
    sql: {
      select: () => `select 1 from public.cities where name = 'Berlin'`,
      insert: () => `insert into public.cities (name, state, latitude, longitude, population) values ('Matrixstadt', 'Berlin', 52.5, 13.4, 1)`,
      update: () => `update public.cities set population = population where name = 'Berlin'`,
      delete: () => `delete from public.cities where name = 'Berlin'`,
    },
    expect: { select: 'AAAAAAA', insert: 'DDDDDDA', update: 'DDDDDDA', delete: 'DDDDDDA' },
  },
  prices: {
    sql: {
      select: () => `select 1 from public.prices where plan_id = 'basic' and billing_period = 'monthly'`,
      insert: () => `insert into public.prices (plan_id, billing_period, amount_cents) values ('basic', 'monthly', 1900) on conflict (plan_id, billing_period) do update set amount_cents = excluded.amount_cents`,
      update: () => `update public.prices set amount_cents = 1 where plan_id = 'basic' and billing_period = 'monthly'`,
      delete: () => `delete from public.prices where plan_id = 'basic' and billing_period = 'yearly'`,
    },
    expect: { select: 'AAAAAAA', insert: 'DDDDDDA', update: 'DDDDDDA', delete: 'DDDDDDA' },
  },
  seat_prices: {
    sql: {
      select: () => `select 1 from public.seat_prices where billing_period = 'monthly'`,
      insert: () => `insert into public.seat_prices (billing_period, amount_cents) values ('monthly', 1500) on conflict (billing_period) do update set amount_cents = excluded.amount_cents`,
      update: () => `update public.seat_prices set amount_cents = 1 where billing_period = 'monthly'`,
      delete: () => `delete from public.seat_prices where billing_period = 'yearly'`,
    },
    expect: { select: 'AAAAAAA', insert: 'DDDDDDA', update: 'DDDDDDA', delete: 'DDDDDDA' },
  },
  subscriptions: {
    sql: {
      select: () => `select 1 from public.subscriptions where id = '${f.subscription}'`,
      // canceled: a second live subscription is refused by subscriptions_one_live_per_user (issue 12 finding 7)
      insert: () => `insert into public.subscriptions (user_id, plan_id, status, stripe_customer_id, stripe_subscription_id, last_synced_at) values ($1, 'basic', 'canceled', 'cus_matrix', 'sub_matrix_new', now())`,
      update: () => `update public.subscriptions set status = 'canceled' where id = '${f.subscription}'`,
      delete: () => `delete from public.subscriptions where id = '${f.subscription}'`,
    },
    expect: { select: 'DADDAAA', insert: 'DDDDDDA', update: 'DDDDDDA', delete: 'DDDDDDA' },
  },
  stripe_events: {
    sql: {
      select: () => `select 1 from public.stripe_events where id = 'evt_matrix_fixture'`,
      insert: () => `insert into public.stripe_events (id, type) values ('evt_matrix_new', 'invoice.paid')`,
      update: () => `update public.stripe_events set processed_at = now() where id = 'evt_matrix_fixture'`,
      delete: () => `delete from public.stripe_events where id = 'evt_matrix_fixture'`,
    },
    expect: { select: 'DDDDDAA', insert: 'DDDDDDA', update: 'DDDDDDA', delete: 'DDDDDDA' },
  },
  contacts: {
    sql: {
      select: () => `select 1 from public.contacts where id = ${f.contact}`,
      insert: () => `insert into public.contacts (requester_id, addressee_id) values ($1, '${f.fourth}')`,
      update: () => `update public.contacts set status = 'declined' where id = ${f.contact}`,
      delete: () => `delete from public.contacts where id = ${f.contact}`,
    },
    // requests only through send_contact_request (issue 13), never a direct INSERT
    expect: { select: 'DAADAAA', insert: 'DDDDDDA', update: 'DADDDDA', delete: 'DAADAAA' },
  },
  user_settings: {
    sql: {
      select: () => `select 1 from public.user_settings where user_id = '${f.owner}'`,
      insert: () => `insert into public.user_settings (user_id, show_online_status) values ($1, false)`,
      update: () => `update public.user_settings set email_messages = false where user_id = '${f.owner}'`,
      delete: () => `delete from public.user_settings where user_id = '${f.owner}'`,
    },
    prep: { insert: () => `delete from public.user_settings where user_id = '${f.owner}';` },
    // only the owner (also while suspended: privacy switches stay theirs); no deletes (issue 13)
    expect: { select: 'DADDADA', insert: 'DAAAAAA', update: 'DADDADA', delete: 'DDDDDDA' },
  },
  projects: {
    sql: {
      select: () => `select 1 from public.projects where id = ${f.project1}`,
      insert: () => `insert into public.projects (owner_id, title, category, status) values ($1, 'Matrix Projekt Neu', 'science', 'draft')`,
      update: () => `update public.projects set summary = 'Neu' where id = ${f.project1}`,
      delete: () => `delete from public.projects where id = ${f.project1}`,
    },
    expect: { select: 'AAADAAA', insert: 'DAAADAA', update: 'DADDDAA', delete: 'DADDDAA' },
  },
  favourite_projects: {
    sql: {
      select: () => `select 1 from public.favourite_projects where user_id = '${f.owner}' and project_id = ${f.project1}`,
      insert: () => `insert into public.favourite_projects (user_id, project_id) values ($1, ${f.project2})`,
      update: () => `update public.favourite_projects set created_at = now() where user_id = '${f.owner}' and project_id = ${f.project1}`,
      delete: () => `delete from public.favourite_projects where user_id = '${f.owner}' and project_id = ${f.project1}`,
    },
    expect: { select: 'DADDADA', insert: 'DAADDAA', update: 'DDDDDDA', delete: 'DADDADA' },
  },
  jobs: {
    sql: {
      select: () => `select 1 from public.jobs where id = '${f.job1}'`,
      insert: () => `insert into public.jobs (id, title, company, remote, employment_type, description, apply_url, posted_by) values ('matrix-job-new', 'Matrix Job', 'Firma GmbH', true, 'full_time', 'Beschreibung', 'https://jobs.example.com/1', $1)`,
      update: () => `update public.jobs set title = 'Neuer Titel' where id = '${f.job1}'`,
      delete: () => `delete from public.jobs where id = '${f.job1}'`,
    },
    expect: { select: 'AAAAAAA', insert: 'DDDDDAA', update: 'DDDDDAA', delete: 'DDDDDAA' },
  },
  favourite_jobs: {
    sql: {
      select: () => `select 1 from public.favourite_jobs where user_id = '${f.owner}' and job_id = '${f.job1}'`,
      insert: () => `insert into public.favourite_jobs (user_id, job_id) values ($1, '${f.job2}')`,
      update: () => `update public.favourite_jobs set created_at = now() where user_id = '${f.owner}' and job_id = '${f.job1}'`,
      delete: () => `delete from public.favourite_jobs where user_id = '${f.owner}' and job_id = '${f.job1}'`,
    },
    expect: { select: 'DADDADA', insert: 'DAAADAA', update: 'DDDDDDA', delete: 'DADDADA' },
  },
  portfolios: {
    sql: {
      select: () => `select 1 from public.portfolios where id = ${f.portfolio}`,
      insert: () => `insert into public.portfolios (owner_id, title) values ($1, 'Matrix Mappe')`,
      update: () => `update public.portfolios set description_de = 'Neu' where id = ${f.portfolio}`,
      delete: () => `delete from public.portfolios where id = ${f.portfolio}`,
    },
    expect: { select: 'AAADAAA', insert: 'DAAADAA', update: 'DADDDAA', delete: 'DADDDAA' },
  },
  portfolio_files: {
    sql: {
      select: () => `select 1 from public.portfolio_files where id = ${f.file}`,
      insert: () => `insert into public.portfolio_files (portfolio_id, owner_id, object_path, file_name, mime_type, size_bytes) values (${f.portfolio}, $1::uuid, $1::text || '/${f.portfolio}/neu.pdf', 'neu.pdf', 'application/pdf', 1000)`,
      update: () => `update public.portfolio_files set file_name = 'umbenannt.pdf' where id = ${f.file}`,
      delete: () => `delete from public.portfolio_files where id = ${f.file}`,
    },
    expect: { select: 'AAADAAA', insert: 'DADDDDA', update: 'DADDDDA', delete: 'DADDAAA' },
  },
  events: {
    sql: {
      select: () => `select 1 from public.events where id = ${f.event1}`,
      insert: () => `insert into public.events (organizer_id, title, starts_at, ends_at, city, status) values ($1, 'Matrix Treffen', now() + interval '1 day', now() + interval '26 hours', 'Berlin', 'draft')`,
      update: () => `update public.events set summary = 'Neu' where id = ${f.event1}`,
      delete: () => `delete from public.events where id = ${f.event1}`,
    },
    expect: { select: 'AAADAAA', insert: 'DAAADAA', update: 'DADDDAA', delete: 'DADDDAA' },
  },
  event_attendees: {
    sql: {
      select: () => `select 1 from public.event_attendees where event_id = ${f.event1} and user_id = '${f.owner}'`,
      insert: () => `insert into public.event_attendees (event_id, user_id) values (${f.event2}, $1)`,
      update: () => `update public.event_attendees set status = 'cancelled' where event_id = ${f.event1} and user_id = '${f.owner}'`,
      delete: () => `delete from public.event_attendees where event_id = ${f.event1} and user_id = '${f.owner}'`,
    },
    // issue 16: API roles write only through rsvp_event / cancel_rsvp / reserve_ticket (event row lock first)
    expect: { select: 'DADDAAA', insert: 'DDDDDDA', update: 'DDDDDDA', delete: 'DDDDDDA' },
  },
  event_tickets: {
    sql: {
      select: () => `select 1 from public.event_tickets where id = ${f.ticket}`,
      insert: () => `insert into public.event_tickets (event_id, user_id, ticket_number, amount_cents, hold_expires_at) values (${f.event2}, $1, 'TW-00000000AB', 1500, now() + interval '30 minutes')`,
      update: () => `update public.event_tickets set lang = 'de' where id = ${f.ticket}`,
      delete: () => `delete from public.event_tickets where id = ${f.ticket}`,
    },
    expect: { select: 'DADDAAA', insert: 'DDDDDDA', update: 'DDDDDDA', delete: 'DDDDDDA' },
  },
  event_status_transitions: {
    sql: {
      select: () => `select 1 from public.event_status_transitions where from_status = 'draft' and to_status = 'published'`,
      insert: () => `insert into public.event_status_transitions values ('finished', 'draft')`,
      update: () => `update public.event_status_transitions set to_status = 'upcoming' where from_status = 'draft' and to_status = 'published'`,
      delete: () => `delete from public.event_status_transitions where from_status = 'ongoing' and to_status = 'cancelled'`,
    },
    expect: { select: 'AAAAAAA', insert: 'DDDDDDA', update: 'DDDDDDA', delete: 'DDDDDDA' },
  },
  conversations: {
    sql: {
      select: () => `select 1 from public.conversations where id = '${f.conversation}'`,
      insert: () => `insert into public.conversations (kind, title, created_by) values ('group', 'Matrix-Gruppe', $1)`,
      update: () => `update public.conversations set title = 'Neu' where id = '${f.conversation}'`,
      delete: () => `delete from public.conversations where id = '${f.conversation}'`,
    },
    // conversations start only through start_direct_conversation (issue 13: contacts only)
    // a conversation holds both people's messages: only admins delete it, members leave (issue 31 §5)
    expect: { select: 'DAADAAA', insert: 'DDDDDDA', update: 'DADDDDA', delete: 'DDDDDAA' },
  },
  conversation_members: {
    sql: {
      select: () => `select 1 from public.conversation_members where conversation_id = '${f.conversation}' and user_id = '${f.owner}'`,
      insert: () => `insert into public.conversation_members (conversation_id, user_id) values ('${f.conversation}', '${f.fourth}')`,
      update: () => `update public.conversation_members set last_read_at = now() where conversation_id = '${f.conversation}' and user_id = '${f.owner}'`,
      delete: () => `delete from public.conversation_members where conversation_id = '${f.conversation}' and user_id = '${f.owner}'`,
    },
    // members join through start_direct_conversation, last_read_at moves through mark_conversation_read (issue 13)
    expect: { select: 'DAADAAA', insert: 'DDDDDDA', update: 'DDDDDDA', delete: 'DADDADA' },
  },
  messages: {
    sql: {
      select: () => `select 1 from public.messages where id = ${f.message}`,
      insert: () => `insert into public.messages (conversation_id, sender_id, body) values ('${f.conversation}', $1, 'Hallo zusammen!')`,
      update: () => `update public.messages set body = 'Bearbeitet' where id = ${f.message}`,
      delete: () => `delete from public.messages where id = ${f.message}`,
    },
    // soft delete within 15 minutes through UPDATE deleted_at; no hard DELETE for API roles (issue 13)
    expect: { select: 'DAADAAA', insert: 'DAADDDA', update: 'DADDDDA', delete: 'DDDDDDA' },
  },
  feedback: {
    sql: {
      select: () => `select 1 from public.feedback where id = ${f.feedback}`,
      insert: () => `insert into public.feedback (user_id, message) values ($1, 'Sehr hilfreich, danke!')`,
      update: () => `update public.feedback set status = 'done' where id = ${f.feedback}`,
      delete: () => `delete from public.feedback where id = ${f.feedback}`,
    },
    expect: { select: 'DADDAAA', insert: 'DAAADAA', update: 'DDDDDAA', delete: 'DDDDDAA' },
  },
  newsletter_subscribers: {
    sql: {
      select: () => `select 1 from public.newsletter_subscribers where id = ${f.newsletter}`,
      insert: () => `insert into public.newsletter_subscribers (email) values ('matrix-new@example.com')`,
      update: () => `update public.newsletter_subscribers set status = 'unsubscribed' where id = ${f.newsletter}`,
      delete: () => `delete from public.newsletter_subscribers where id = ${f.newsletter}`,
    },
    expect: { select: 'DDDDDAA', insert: 'DDDDDDA', update: 'DDDDDAA', delete: 'DDDDDAA' },
  },
  cancellation_requests: {
    sql: {
      select: () => `select 1 from public.cancellation_requests where id = '${f.cancellation}'`,
      insert: () => `insert into public.cancellation_requests (name, email) values ('Karl Kündig', 'karl@example.com')`,
      update: () => `update public.cancellation_requests set status = 'failed' where id = '${f.cancellation}'`,
      delete: () => `delete from public.cancellation_requests where id = '${f.cancellation}'`,
    },
    expect: { select: 'DDDDDAA', insert: 'DDDDDDA', update: 'DDDDDDA', delete: 'DDDDDDA' },
  },
  contact_messages: {
    sql: {
      select: () => `select 1 from public.contact_messages where id = ${f.contactMessage}`,
      insert: () => `insert into public.contact_messages (user_id, name, email, subject, message) values ($1, 'Erika Muster', 'erika@example.com', 'Frage', 'Ich habe eine Frage zu Ihrem Angebot.')`,
      update: () => `update public.contact_messages set status = 'done' where id = ${f.contactMessage}`,
      delete: () => `delete from public.contact_messages where id = ${f.contactMessage}`,
    },
    expect: { select: 'DDDDDAA', insert: 'AAAAAAA', update: 'DDDDDAA', delete: 'DDDDDAA' },
  },
  // issue 19: matching
  skills: {
    sql: {
      select: () => `select 1 from public.skills where key = 'backend'`,
      insert: () => `insert into public.skills (id, key, role, label_en, label_de) values (200, 'matrix_skill', 'technical', 'Matrix', 'Matrix')`,
      update: () => `update public.skills set label_en = label_en || '!' where key = 'backend'`,
      delete: () => `delete from public.skills where key = 'venture_capital'`,
    },
    expect: { select: 'AAAAAAA', insert: 'DDDDDDA', update: 'DDDDDDA', delete: 'DDDDDDA' },
  },
  match_profiles: {
    sql: {
      select: () => `select 1 from public.match_profiles where id = '${f.matchProfile}'`,
      insert: () => `insert into public.match_profiles (user_id, roles_offered) values ($1, '{design}')`,
      update: () => `update public.match_profiles set radius_km = 80 where id = '${f.matchProfile}'`,
      delete: () => `delete from public.match_profiles where id = '${f.matchProfile}'`,
    },
    // each actor inserts their own primary profile (the owner's fixture profile is removed first)
    prep: { insert: () => `delete from public.match_profiles where user_id = '${f.owner}';` },
    expect: { select: 'DADDAAA', insert: 'DAAADAA', update: 'DADDDDA', delete: 'DADDAAA' },
  },
  project_open_roles: {
    sql: {
      select: () => `select 1 from public.project_open_roles where id = ${f.openRole}`,
      insert: () => `insert into public.project_open_roles (project_id, role, skills) values (${f.project2}, 'design', '{ui_design}')`,
      update: () => `update public.project_open_roles set title = 'CTO' where id = ${f.openRole}`,
      delete: () => `delete from public.project_open_roles where id = ${f.openRole}`,
    },
    expect: { select: 'AAADAAA', insert: 'DADDDDA', update: 'DADDDDA', delete: 'DADDAAA' },
  },
  match_declines: {
    sql: {
      select: () => `select 1 from public.match_declines where user_id = '${f.owner}' and declined_id = '${f.third}'`,
      insert: () => `insert into public.match_declines (user_id, declined_id) values ($1, '${f.fourth}')`,
      update: () => `update public.match_declines set created_at = now() where user_id = '${f.owner}' and declined_id = '${f.third}'`,
      delete: () => `delete from public.match_declines where user_id = '${f.owner}' and declined_id = '${f.third}'`,
    },
    expect: { select: 'DADDADA', insert: 'DAAADAA', update: 'DDDDDDA', delete: 'DADDADA' },
  },
  match_impressions: {
    sql: {
      select: () => `select 1 from public.match_impressions where user_id = '${f.owner}' and shown_id = '${f.other}'`,
      insert: () => `insert into public.match_impressions (user_id, shown_id) values ($1, '${f.fourth}')`,
      update: () => `update public.match_impressions set first_shown_at = now() where user_id = '${f.owner}' and shown_id = '${f.other}'`,
      delete: () => `delete from public.match_impressions where user_id = '${f.owner}' and shown_id = '${f.other}'`,
    },
    expect: { select: 'DADDADA', insert: 'DDDDDDA', update: 'DDDDDDA', delete: 'DDDDDDA' },
  },
  // issue 15: the owner owns the fixture organisation (role owner); "other" is an outsider
  organizations: {
    sql: {
      select: () => `select 1 from public.organizations where id = '${f.org}'`,
      insert: () => `insert into public.organizations (slug, name) values ('matrix-org-neu', 'Matrix Neu')`,
      update: () => `update public.organizations set description_de = 'Neu' where id = '${f.org}'`,
      delete: () => `delete from public.organizations where id = '${f.org}'`,
    },
    // created only through create_organization, deleted only through delete_organization; platform admins moderate
    expect: { select: 'AAAAAAA', insert: 'DDDDDDA', update: 'DADDDAA', delete: 'DDDDDDA' },
  },
  organization_members: {
    sql: {
      select: () => `select 1 from public.organization_members where organization_id = '${f.org}' and user_id = '${f.owner}'`,
      insert: () => `insert into public.organization_members (organization_id, user_id) values ('${f.org}', $1)`,
      update: () => `update public.organization_members set listed = false where organization_id = '${f.org}' and user_id = '${f.owner}'`,
      delete: () => `delete from public.organization_members where organization_id = '${f.org}' and user_id = '${f.owner}'`,
    },
    // the fourth user stays as admin (a last member's removal would delete the organisation)
    prep: {
      insert: () => `insert into public.organization_members (organization_id, user_id, role) values ('${f.org}', '${f.fourth}', 'admin');
        delete from public.organization_members where organization_id = '${f.org}' and user_id = '${f.owner}';`,
    },
    // joins, roles and removals only through the organisation RPCs; a member switches only their own listing
    expect: { select: 'DADDAAA', insert: 'DDDDDDA', update: 'DADDDDA', delete: 'DDDDDDA' },
  },
  organization_invitations: {
    sql: {
      select: () => `select 1 from public.organization_invitations where id = '${f.invitation}'`,
      insert: () => `insert into public.organization_invitations (organization_id, email, token_hash) values ('${f.org}', 'neu@tests.teamwerk.test', repeat('b', 64))`,
      update: () => `update public.organization_invitations set revoked_at = now() where id = '${f.invitation}'`,
      delete: () => `delete from public.organization_invitations where id = '${f.invitation}'`,
    },
    // the invited address is personal data: the organisation's owners and admins only (not platform admins); writes through RPCs
    expect: { select: 'DADDADA', insert: 'DDDDDDA', update: 'DDDDDDA', delete: 'DDDDDDA' },
  },
  // issue 15 API access: owners and admins of the organisation read their keys (not the hash);
  // keys are created and revoked only through create_api_key / revoke_api_key
  api_keys: {
    sql: {
      select: () => `select 1 from public.api_keys where id = '${f.apiKey}'`,
      insert: () => `insert into public.api_keys (organization_id, name, scopes, prefix, key_hash, created_by) values ('${f.apiOrg}', 'Neu', '{jobs:read}', 'twk_matrix02', repeat('c', 64), $1)`,
      update: () => `update public.api_keys set revoked_at = now() where id = '${f.apiKey}'`,
      delete: () => `delete from public.api_keys where id = '${f.apiKey}'`,
    },
    expect: { select: 'DADDADA', insert: 'DDDDDDA', update: 'DDDDDDA', delete: 'DDDDDDA' },
  },
};

let db: TestDb;
const actors = {} as Record<Role, Actor>;
const selfOf = {} as Record<Role, { id: string | null; email: string | null }>;

beforeAll(async () => {
  db = await TestDb.open();
  // paid through the fixture subscription below (one live subscription per account)
  const owner = await db.user({ role: 'premium', name: 'Olga Owner', paid: false });
  // paid, so its cells test row-level security and not the payment-required rule (payment-rules.test.ts)
  const other = await db.user({ role: 'premium', name: 'Otto Other' });
  const blocked = await db.user({ role: 'premium', name: 'Bea Blocked' });
  const admin = await db.user({ role: 'admin', name: 'Ada Admin' });
  const third = await db.user({ role: 'free', name: 'Theo Third' });
  const fourth = await db.user({ role: 'free', name: 'Fritz Fourth' });
  Object.assign(f, { owner: owner.id, other: other.id, blocked: blocked.id, admin: admin.id, third: third.id, fourth: fourth.id });
  const [spare] = await db.sql<{ id: string }>(`insert into auth.users (id, email, aud, role) values (gen_random_uuid(), 'spare@tests.teamwerk.test', 'authenticated', 'authenticated') returning id`);
  f.spareUser = spare!.id;
  const one = async (sql: string, params: unknown[] = []) => String(Object.values((await db.sql(sql, params))[0]!)[0]);

  await db.sql(`insert into public.user_blocks (blocker_id, blocked_id) values ($1, $2), ($3, $4)`, [blocked.id, owner.id, owner.id, third.id]);
  f.project1 = await one(`insert into public.projects (owner_id, title, summary, category, status) values ($1, 'Matrix Projekt Eins', 'Test', 'technology', 'published') returning id`, [owner.id]);
  f.project2 = await one(`insert into public.projects (owner_id, title, summary, category, status) values ($1, 'Matrix Projekt Zwei', 'Test', 'education', 'published') returning id`, [owner.id]);
  await db.sql(`insert into public.favourite_projects (user_id, project_id) values ($1, $2)`, [owner.id, f.project1]);
  f.portfolio = await one(`insert into public.portfolios (owner_id, title, status, file_access) values ($1, 'Matrix Mappe', 'published', 'public') returning id`, [owner.id]);
  f.file = await one(`insert into public.portfolio_files (portfolio_id, owner_id, object_path, file_name, mime_type, size_bytes) values ($1::bigint, $2::uuid, $2::text || '/' || $1::text || '/cv.pdf', 'cv.pdf', 'application/pdf', 2048) returning id`, [f.portfolio, owner.id]);
  f.event1 = await one(`insert into public.events (organizer_id, title, status, starts_at, ends_at, city, capacity) values ($1, 'Matrix Event Eins', 'published', now() + interval '7 days', now() + interval '7 days 2 hours', 'Leipzig', 10) returning id`, [owner.id]);
  f.event2 = await one(`insert into public.events (organizer_id, title, status, starts_at, ends_at, city, capacity) values ($1, 'Matrix Event Zwei', 'published', now() + interval '8 days', now() + interval '8 days 2 hours', 'Leipzig', 10) returning id`, [owner.id]);
  await db.sql(`insert into public.event_attendees (event_id, user_id) values ($1, $2)`, [f.event1, owner.id]);
  f.ticket = await one(`insert into public.event_tickets (event_id, user_id, ticket_number, amount_cents, hold_expires_at, status) values ($1, $2, 'TW-00000000AA', 1500, now() - interval '1 hour', 'expired') returning id`, [f.event1, owner.id]);
  f.job1 = 'matrix-job-1';
  f.job2 = 'matrix-job-2';
  await db.sql(`insert into public.jobs (id, title, company, remote, employment_type, description, apply_url, posted_by) values
    ('matrix-job-1', 'Matrix Job Eins', 'Firma GmbH', true, 'full_time', 'Text', 'https://jobs.example.com/1', $1),
    ('matrix-job-2', 'Matrix Job Zwei', 'Firma GmbH', true, 'part_time', 'Text', 'https://jobs.example.com/2', $1)`, [admin.id]);
  await db.sql(`update public.jobs set city = 'Köln' where id = 'matrix-job-2'`);
  await db.sql(`insert into public.favourite_jobs (user_id, job_id) values ($1, 'matrix-job-1')`, [owner.id]);
  await db.sql(`insert into public.user_settings (user_id, show_online_status) values ($1, true)`, [owner.id]);
  f.contact = await one(`insert into public.contacts (requester_id, addressee_id) values ($1, $2) returning id`, [other.id, owner.id]);
  f.conversation = await one(`insert into public.conversations (kind, created_by) values ('direct', $1) returning id`, [owner.id]);
  await db.sql(`insert into public.conversation_members (conversation_id, user_id, role) values ($1, $2, 'owner'), ($1, $3, 'member')`, [f.conversation, owner.id, other.id]);
  f.message = await one(`insert into public.messages (conversation_id, sender_id, body) values ($1, $2, 'Hallo Otto!') returning id`, [f.conversation, owner.id]);
  f.feedback = await one(`insert into public.feedback (user_id, message) values ($1, 'Tolle Plattform') returning id`, [owner.id]);
  f.newsletter = await one(`insert into public.newsletter_subscribers (email, user_id) values ($1, $2) returning id`, [owner.email, owner.id]);
  f.contactMessage = await one(`insert into public.contact_messages (user_id, name, email, subject, message) values ($1, 'Olga Owner', $2, 'Frage', 'Eine Frage zur Rechnung bitte.') returning id`, [owner.id, owner.email]);
  f.cancellation = await one(`insert into public.cancellation_requests (name, email, user_id) values ('Olga Owner', $1, $2) returning id`, [owner.email, owner.id]);
  f.audit = await one(`insert into public.audit_log (action, target_table, target_id) values ('matrix.fixture', 'profiles', $1) returning id`, [owner.id]);
  await db.sql(`insert into public.email_types (key, description) values ('matrix_fixture', 'Matrix fixture')`);
  await db.sql(`insert into public.stripe_events (id, type) values ('evt_matrix_fixture', 'invoice.paid')`);
  f.queue = await one(`insert into public.email_queue (user_id, email, email_type) values ($1, $2, 'password_reset') returning id`, [owner.id, owner.email]);
  f.subscription = await one(`insert into public.subscriptions (user_id, plan_id, status, stripe_customer_id, stripe_subscription_id, last_synced_at) values ($1, 'premium', 'active', 'cus_matrix', 'sub_matrix_fixture', now()) returning id`, [owner.id]);

  f.matchProfile = await one(`insert into public.match_profiles (user_id, kind, roles_offered, roles_sought, skills) values ($1, 'founder_with_idea', '{business}', '{technical}', '{strategy}') returning id`, [owner.id]);
  f.openRole = await one(`insert into public.project_open_roles (project_id, role, skills) values ($1, 'technical', '{backend}') returning id`, [f.project1]);
  await db.sql(`insert into public.match_declines (user_id, declined_id) values ($1, $2)`, [owner.id, third.id]);
  await db.sql(`insert into public.match_impressions (user_id, shown_id) values ($1, $2)`, [owner.id, other.id]);
  f.apiOrg = await one(`insert into public.organizations (slug, name, created_by) values ('matrix-api-org', 'Matrix API GmbH', $1) returning id`, [owner.id]);
  await db.sql(`insert into public.organization_members (organization_id, user_id, role) values ($1, $2, 'owner')`, [f.apiOrg, owner.id]);
  f.apiKey = await one(`insert into public.api_keys (organization_id, name, scopes, prefix, key_hash, created_by) values ($1, 'Matrix', '{projects:read}', 'twk_matrix01', repeat('a', 64), $2) returning id`, [f.apiOrg, owner.id]);

  f.org = await one(`insert into public.organizations (slug, name) values ('matrix-org', 'Matrix GmbH') returning id`);
  await db.sql(`insert into public.organization_members (organization_id, user_id, role) values ($1, $2, 'owner')`, [f.org, owner.id]);
  f.invitation = await one(`insert into public.organization_invitations (organization_id, email, token_hash, invited_by) values ($1, 'eingeladen@tests.teamwerk.test', repeat('a', 64), $2) returning id`, [f.org, owner.id]);

  Object.assign(actors, { anon, owner, other, blocked, suspended: owner, admin, service_role: serviceRole });
  Object.assign(selfOf, {
    anon: { id: null, email: null }, owner: owner, other, blocked, suspended: owner, admin, service_role: owner,
  });
});

afterAll(async () => {
  await db?.close();
});

/**
 * Fixture tables of the local stack's contract tests (scripts/local-stack/tests: `test_*`,
 * `rt_test_*`) exist only while those tests run, in parallel with this file; they are not
 * part of the product's schema.
 */
const isStackTestFixture = (name: string) => /^(test_|rt_test_)/.test(name);

describe('RLS matrix completeness', () => {
  test('every table and view in public has a matrix entry (and no stale entries)', async () => {
    const rows = await db.sql<{ name: string }>(
      `select table_name as name from information_schema.tables where table_schema = 'public' order by 1`);
    const inDb = rows.map((r) => r.name).filter((t) => !isStackTestFixture(t));
    expect(inDb.filter((t) => !(t in MATRIX)), 'tables/views without a row in the RLS matrix').toEqual([]);
    expect(Object.keys(MATRIX).filter((t) => !inDb.includes(t)), 'matrix rows for missing tables').toEqual([]);
  });

  test('row-level security is enabled on every table in public', async () => {
    const rows = await db.sql<{ relname: string }>(
      `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relrowsecurity`);
    expect(rows.map((r) => r.relname).filter((t) => !isStackTestFixture(t))).toEqual([]);
  });

  test('views in public run with the caller\'s rights (security_invoker)', async () => {
    const rows = await db.sql<{ relname: string }>(
      `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind = 'v'
         and not coalesce(c.reloptions @> array['security_invoker=true'], false)`);
    expect(rows.map((r) => r.relname)).toEqual([]);
  });
});

for (const [table, spec] of Object.entries(MATRIX)) {
  describe(`RLS ${table}`, () => {
    for (const op of OPS) {
      const expected = spec.expect[op];
      test.each(ROLES.map((role, i) => [role, expected[i] === 'A'] as const))(`${op} as %s -> allowed=%s`, async (role, allowed) => {
        expect(expected).toHaveLength(ROLES.length);
        const prep = [role === 'suspended' ? suspendOwner() : '', spec.prep?.[op]?.() ?? ''].join('\n');
        const self = selfOf[role];
        const sql = spec.sql[op]();
        const params = sql.includes('$2') ? [self.id, self.email] : sql.includes('$1') ? [self.id] : [];
        const outcome = await db.as(actors[role], sql, params, prep);
        const got = outcome.ok && outcome.rowCount >= 1;
        expect(got, `${table}.${op} as ${role}: ${outcome.ok ? `${outcome.rowCount} rows` : `${outcome.code} ${outcome.message}`}`).toBe(allowed);
      });
    }
  });
}
