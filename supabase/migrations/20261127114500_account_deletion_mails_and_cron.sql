-- Issue 32 §1: deleting an account ends its subscriptions at Stripe. Reference data for it:
-- the two confirmation mails (03_email.sql kinds and templates) and the pg_cron job that works the
-- queue of cancellations owed to deleted accounts (private.account_deletion_cancellations,
-- 04_billing.sql) through the delete-account function, every minute, with backoff on failures.

insert into public.email_types (key, description, priority) values
  ('account_deleted', 'Confirmation: the account and its data were deleted (no subscription to end; issue 32 §1).', 1),
  ('account_deleted_subscription_cancelled', 'Confirmation: the account was deleted and its subscription cancelled at once, without refund (issue 32 §1).', 1)
on conflict (key) do update set description = excluded.description, priority = excluded.priority;

insert into public.email_templates (key, lang, subject, body) values
('account_deleted', 'de', 'Ihr Teamwerk-Konto wurde gelöscht',
$t$Hallo {{firstname}},

Ihr Teamwerk-Konto mit dieser E-Mail-Adresse wurde gelöscht, zusammen mit Ihrem Profil und allen Ihren Inhalten. Das kann nicht rückgängig gemacht werden.

Sie haben die Löschung nicht veranlasst? Dann antworten Sie bitte auf diese E-Mail.

Viele Grüße
Ihr Teamwerk-Team$t$),
('account_deleted', 'en', 'Your Teamwerk account has been deleted',
$t$Hi {{firstname}},

your Teamwerk account with this e-mail address has been deleted, together with your profile and all your content. This cannot be undone.

You did not ask for this? Then please reply to this e-mail.

Best regards
The Teamwerk team$t$),
('account_deleted_subscription_cancelled', 'de', 'Konto gelöscht, Abo gekündigt',
$t$Hallo {{firstname}},

Ihr Teamwerk-Konto mit dieser E-Mail-Adresse wurde gelöscht, zusammen mit Ihrem Profil und allen Ihren Inhalten.

Ihr Abo „{{plan}}“ wurde dabei am {{date}} mit sofortiger Wirkung gekündigt. Es werden keine weiteren Zahlungen eingezogen; der bereits bezahlte Zeitraum wird nicht erstattet.

Abo-Nummer: {{subscription_ids}}

Sie haben die Löschung nicht veranlasst? Dann antworten Sie bitte auf diese E-Mail.

Viele Grüße
Ihr Teamwerk-Team$t$),
('account_deleted_subscription_cancelled', 'en', 'Account deleted, subscription cancelled',
$t$Hi {{firstname}},

your Teamwerk account with this e-mail address has been deleted, together with your profile and all your content.

Your "{{plan}}" subscription was cancelled with immediate effect on {{date}}. No further payments will be taken; the period already paid is not refunded.

Subscription number: {{subscription_ids}}

You did not ask for this? Then please reply to this e-mail.

Best regards
The Teamwerk team$t$)
on conflict (key, lang) do update set subject = excluded.subject, body = excluded.body;

do $$
begin
  if pg_catalog.to_regnamespace('cron') is null then
    return;
  end if;
  perform cron.schedule('delete-account-cancellations', '* * * * *', $job$select private.invoke_edge_function('delete-account') as request_id$job$);
end;
$$;
