import type { CurrentUser } from '@campus-books/common/account.schemas';
import { imageVariantUrl } from '@campus-books/common/images';

/** The signed-in user's avatar, or a neutral person icon when there is none. */
export function AccountIcon({ user }: { user: CurrentUser }) {
  if (user.avatar) {
    return (
      <img
        src={imageVariantUrl(user.avatar, 320)}
        alt=""
        width={36}
        height={36}
        className="size-9 rounded-full object-cover ring-2 ring-brand-200"
      />
    );
  }
  return (
    <svg aria-hidden="true" viewBox="0 0 36 36" className="size-9">
      <circle cx="18" cy="18" r="18" className="fill-brand-100" />
      <circle cx="18" cy="14" r="6" className="fill-brand-700" />
      <path d="M7 30c2-6 6.5-8.5 11-8.5S27 24 29 30" className="fill-brand-700" />
    </svg>
  );
}
