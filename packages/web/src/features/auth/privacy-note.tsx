import { Link } from 'react-router';
import { paths } from '../../config/paths';

/** The sign-up info box on data privacy (spec section 1). */
export function PrivacyNote() {
  return (
    <aside
      aria-labelledby="privacy-note-title"
      className="mt-5 rounded-md border border-blue-200 bg-blue-50 p-4 text-sm text-blue-950"
    >
      <h2 id="privacy-note-title" className="font-semibold">
        Your data stays private
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        <li>We use your information only to verify that you are a legitimate student.</li>
        <li>Your password is hashed; nobody, including us, can read it.</li>
        <li>Your session is protected by a signed authentication token.</li>
      </ul>
      <p className="mt-1">
        <Link to={paths.privacy} className="link inline-flex min-h-11 items-center">
          What we keep, why, and for how long
        </Link>
      </p>
    </aside>
  );
}
