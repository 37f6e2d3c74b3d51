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
    </aside>
  );
}
