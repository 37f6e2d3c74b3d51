export type BannerTone = 'green' | 'blue' | 'amber';

const TONES: Record<BannerTone, string> = {
  green: 'border-green-300 bg-green-50 text-green-900',
  blue: 'border-blue-300 bg-blue-50 text-blue-900',
  amber: 'border-amber-300 bg-amber-50 text-amber-900',
};

/** A feedback message (e.g. 'Listing marked as sold'), announced politely to screen readers. */
export function Banner({ tone, message }: { tone: BannerTone; message: string }) {
  return (
    <p role="status" className={`rounded-lg border px-4 py-3 text-sm font-medium ${TONES[tone]}`}>
      {message}
    </p>
  );
}
