-- Spam protection beyond the honeypot (docs/form-endpoint.md, "Spam protection").
-- captcha: 'none', 'altcha', 'turnstile' or 'hcaptcha'. captcha_secret: the provider's
-- secret key, sealed like webhook secrets (enc1…, bound to the form's id), NULL when none.
-- max_links: more links than this in the fields routes a submission to Spam; NULL: no limit.
-- origins: 'any', 'project', or allowed origins separated by commas.
ALTER TABLE forms ADD COLUMN captcha TEXT NOT NULL DEFAULT 'none';
ALTER TABLE forms ADD COLUMN captcha_secret TEXT;
ALTER TABLE forms ADD COLUMN max_links INTEGER;
ALTER TABLE forms ADD COLUMN origins TEXT NOT NULL DEFAULT 'any';

-- Why a submission is in Spam: 'honeypot', 'captcha_unverified', 'links' or 'manual' (moved
-- by hand); NULL in the inbox and for spam stored before this column.
ALTER TABLE submissions ADD COLUMN spam_reason TEXT;

-- ALTCHA solutions already spent: each counts once, across instances; a row is kept until
-- its challenge expires (then the challenge itself is refused) and swept after.
CREATE TABLE spent_captcha_solutions (
  digest      TEXT PRIMARY KEY,
  expires_at  BIGINT NOT NULL
);
CREATE INDEX spent_captcha_solutions_expiry ON spent_captcha_solutions (expires_at);
