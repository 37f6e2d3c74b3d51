import { useEffect, useState } from 'react';
import { Button } from '../../components/ui/button';

const NOTICE_MS = 2500;

/** Copies the page's link for sharing (e.g. into a GroupMe chat), then says so. */
export function ShareButton() {
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    if (!notice) return;
    const timer = window.setTimeout(() => setNotice(null), NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [notice]);

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(window.location.href);
      setNotice('Link copied!');
    } catch {
      setNotice('Could not copy the link: copy it from the address bar.');
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button variant="secondary" onClick={() => void copyLink()}>
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4">
          <path
            d="M8 12l4-4M7 9.5L5.5 11a2.5 2.5 0 003.5 3.5L10.5 13M13 10.5l1.5-1.5A2.5 2.5 0 0011 5.5L9.5 7"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinecap="round"
          />
        </svg>
        Share
      </Button>
      <p role="status" className="text-sm font-medium text-green-800">
        {notice}
      </p>
    </div>
  );
}
