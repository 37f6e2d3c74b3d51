/** The spec's error block: a '! Error !' heading over the message. */
export function ErrorBlock({ message }: { message: string }) {
  return (
    <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-900">
      <p className="font-bold">! Error !</p>
      <p className="mt-1 text-sm">{message}</p>
    </div>
  );
}
