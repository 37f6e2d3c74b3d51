import { initials } from '../lib/initials';
import { ListingImage } from './listing-image';

const SIZES = {
  sm: 'h-8 w-8 text-xs',
  md: 'h-12 w-12 text-base',
  lg: 'h-20 w-20 text-2xl',
  xl: 'size-24 text-3xl',
};

/** A person's photo, or their initials on a tint when they have none (a person icon when nameless). */
export function Avatar({
  name,
  url,
  size = 'md',
}: {
  name: string;
  url?: string | null;
  size?: keyof typeof SIZES;
}) {
  const box = `${SIZES[size]} inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full`;
  if (url) {
    return (
      <ListingImage
        url={url}
        alt=""
        width={80}
        height={80}
        sizes="80px"
        className={`${box} object-cover`}
      />
    );
  }
  return (
    <span aria-hidden="true" className={`${box} bg-brand-100 font-bold text-brand-900`}>
      {name ? (
        initials(name)
      ) : (
        <svg viewBox="0 0 24 24" className="h-1/2 w-1/2" fill="currentColor">
          <circle cx="12" cy="8" r="4" />
          <path d="M4 21c0-4.4 3.6-7 8-7s8 2.6 8 7z" />
        </svg>
      )}
    </span>
  );
}
