import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useCampus } from '../../lib/campus';

export function Logo() {
  const { name, productName, config } = useCampus();
  return (
    <Link
      to={paths.home}
      className="flex items-center gap-2 rounded-md text-lg font-extrabold tracking-tight text-brand-900 no-underline md:shrink-0 md:whitespace-nowrap"
    >
      {/* The campus's logo as the server serves it (its address), else the product's book. */}
      {config.theme.logo ? (
        <img
          src={config.theme.logo}
          alt={name}
          width={32}
          height={32}
          className="size-8 shrink-0 object-contain"
        />
      ) : (
        <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8 shrink-0">
          <rect width="32" height="32" rx="8" className="fill-brand-700" />
          <path d="M8 9.5c3-1.2 5.6-.8 8 1v13c-2.4-1.8-5-2.2-8-1z" fill="#fff" />
          <path d="M24 9.5c-3-1.2-5.6-.8-8 1v13c2.4-1.8 5-2.2 8-1z" className="fill-brand-200" />
        </svg>
      )}
      <span>{productName}</span>
    </Link>
  );
}
