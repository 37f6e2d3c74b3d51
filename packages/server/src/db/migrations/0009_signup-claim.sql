-- A verification link mailed in answer to a sign-up that hit an existing unverified account
-- carries that sign-up's password hash and names; using the link sets them (decision 008).
ALTER TABLE "email_tokens" ADD COLUMN "signup_claim" jsonb;
