import { formatDays, formatMinutes } from '@campus-books/common/durations';
import { EXPORT_LINK_DAYS } from '@campus-books/common/privacy';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { paths } from '../../config/paths';
import { useCampus } from '../../lib/campus';
import { privacySettingsQueryOptions } from './api/get-privacy-settings';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mt-10">
      <h2 className="text-2xl font-bold text-slate-900">{title}</h2>
      <div className="mt-3 space-y-3 text-slate-800">{children}</div>
    </section>
  );
}

function Kept({ what, why, until }: { what: string; why: ReactNode; until: ReactNode }) {
  return (
    <li className="rounded-lg border border-slate-200 p-4">
      <h3 className="font-semibold text-slate-900">{what}</h3>
      <p className="mt-1">
        <span className="font-medium">Why: </span>
        {why}
      </p>
      <p className="mt-1">
        <span className="font-medium">How long: </span>
        {until}
      </p>
    </li>
  );
}

const days = (n: number | undefined, fallback: string) =>
  n === undefined ? fallback : `${n} day${n === 1 ? '' : 's'}`;

/** /privacy: what the product keeps about a student, why, and how long (the periods are the server's). */
export default function PrivacyPage() {
  const settings = useQuery(privacySettingsQueryOptions);
  const periods = settings.data;
  const campus = useCampus();
  const contact = campus.config.privacyContact.trim();
  return (
    <div className="mx-auto max-w-3xl">
      <PageTitle title="Privacy" />
      <h1 className="text-4xl font-extrabold tracking-tight text-slate-900">Privacy</h1>
      <p className="mt-4 text-lg text-slate-800">
        {campus.productName} keeps only what it needs to run a textbook marketplace for{' '}
        {campus.name}: to check that you are a student, to show your listings, to let buyers reach
        you, and to send the mails you asked for. There are no ads and no trackers, and your data is
        never sold.
      </p>

      <Section title="What we keep and why">
        <ul className="space-y-3">
          <Kept
            what="Your account: name, school e-mail, username, GroupMe link, profile photo, password"
            why={
              <>
                your school e-mail proves you are a student; buyers see your name, username and
                GroupMe link to contact you. Your e-mail is never shown to other students. The
                password is stored hashed: nobody can read it.
              </>
            }
            until="until you delete your account."
          />
          <Kept
            what="Your listings and their photos"
            why="they are what other students search. Photos are stripped of location and camera data."
            until="until you delete them or your account. Sold and expired listings stay visible to you only."
          />
          <Kept
            what="Your alerts and saved listings"
            why="to mail you when a matching book is listed, or a saved one changes. Nobody else sees them."
            until="until you delete them or your account."
          />
          <Kept
            what="Your conversations, messages and offers"
            why="so a buyer and a seller can agree; the other student of a conversation reads what you write there."
            until="while the conversation exists; when you delete your account, what you wrote stays in the other student's conversation without your name."
          />
          <Kept
            what="Reports you send and moderators' decisions"
            why={
              <>
                reports reach the campus moderators only. Each moderator action (which listing or
                account, the reason) is kept in an audit log as a safety record.
              </>
            }
            until="reports go with the listing; the audit log is kept, also after an account is deleted."
          />
          <Kept
            what="Your sign-in sessions"
            why="to keep you signed in on your devices."
            until="until you sign out or the session expires; expired ones are removed within hours."
          />
          <Kept
            what="Devices with notifications on"
            why="to show you notifications there: the address its push service gave it and the keys each notification is encrypted with. A notification names the book, never a message's words."
            until="until you turn notifications off, sign out on that device, or the push service says the device is gone."
          />
          <Kept
            what="Verification and password-reset links"
            why="to confirm your school e-mail and let you reset your password."
            until="removed once used or expired."
          />
          <Kept
            what="Copies of mails we send"
            why="when this installation has no mail server, mails are written to its outbox folder."
            until={`${days(periods?.outboxDays, 'a few weeks')}, then removed.`}
          />
          <Kept
            what="Searches"
            why={
              <>
                searches are not stored with your account. A search term that found nothing is
                counted per day, with no link to anyone, so moderators can see which books students
                want that nobody sells (terms searched only once are never shown).
              </>
            }
            until={`${days(periods?.searchTermsDays, 'a year')}, then removed.`}
          />
          <Kept
            what="Attempt counters and server logs"
            why={
              <>
                sign-in, sign-up and mail attempts are counted per network address to stop abuse;
                the server logs each request (address, page, result) to find faults.
              </>
            }
            until={`counters for their window (${
              periods ? formatMinutes(periods.attemptWindowMinutes) : 'an hour by default'
            }); logs as long as the campus's log system keeps them.`}
          />
        </ul>
      </Section>

      <Section title="A copy of your data">
        <p>
          In your profile, &ldquo;Download my data&rdquo; prepares one file of everything above that
          is about you (with the messages you wrote and your photos), and mails you a link. It works
          for {formatDays(EXPORT_LINK_DAYS)}, only while you are signed in; then the copy is
          deleted.
        </p>
      </Section>

      <Section title="Deleting your account">
        <p>
          In your{' '}
          <Link to={paths.profile} className="link">
            profile
          </Link>
          , &ldquo;Delete account&rdquo; removes your account, listings, photos, alerts, saved
          listings and sessions at once.
        </p>
      </Section>

      <Section title="Questions">
        <p>
          {contact
            ? `Write to ${contact} about your data.`
            : 'Ask the campus moderators about your data.'}
        </p>
      </Section>
    </div>
  );
}
