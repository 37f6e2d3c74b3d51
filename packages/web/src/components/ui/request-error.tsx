/**
 * How a failed request shows beside what sent it: the server's message, announced to screen readers.
 * A form's answer uses ErrorBlock (the spec's '! Error !' block); a page that cannot load says so in
 * its own words. Renders nothing while there is no error.
 */
export function RequestError({
  error,
  className = '',
}: {
  error: Error | null | undefined;
  className?: string;
}) {
  if (!error) return null;
  return (
    <p role="alert" className={`text-sm font-medium text-red-800 ${className}`.trim()}>
      {error.message}
    </p>
  );
}
